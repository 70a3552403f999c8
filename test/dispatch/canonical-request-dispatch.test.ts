// A canonical request (what the Responses and Messages routes send) served through every channel protocol: the
// vendor adapter encodes it, decodes the answer into canonical parts, and the client codec (here the chat codec)
// writes it. Real simulators on loopback; dispatch is called directly with an in-memory client sink.
import { pino } from 'pino';
import { createChannelHealthService } from '../../src/routing/channel-health/channel-health-service.js';
import { defaultChannelHealthSettings } from '../../src/config/channel-health-settings.js';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CanonicalRequest } from '../../src/core/canonical/canonical-request.js';
import type { GatewayError } from '../../src/core/gateway-error.js';
import type { ClientSink, ResponseHeaderGroups } from '../../src/dispatch/client-sink.js';
import type { DispatchOutcome, DispatchRequest } from '../../src/dispatch/dispatch-request.js';
import type { DispatchServices } from '../../src/dispatch/dispatch-services.js';
import { dispatchToChannels } from '../../src/dispatch/dispatch-to-channels.js';
import { createGatewayMetrics } from '../../src/observability/gateway-metrics.js';
import { createChatAnswerCodec } from '../../src/protocols/openai-chat/chat-answer-codec.js';
import type { FetchRemoteImage } from '../../src/providers/remote-image/remote-image.js';
import type { RoutableChannel } from '../../src/routing/routing-table.js';
import { contractTargets, type ContractTarget, type ContractUpstream } from '../contract/contract-targets.js';

/** One of each channel protocol (the OpenAI-wire one through the OpenAI chat adapter). */
const targets = contractTargets.filter((target) => target.name !== 'anthropic (2026-10-21)');

/** A client sink that keeps what the client would have received. */
class RecordingClientSink implements ClientSink {
  gone = false;
  streaming = false;
  needsDrain = false;
  status: number | undefined;
  body = '';
  onClientLeave(): () => void {
    return () => undefined;
  }
  async sendAnswer(status: number, _headers: ResponseHeaderGroups, body: string): Promise<void> {
    this.status = status;
    this.body = body;
  }
  startStream(): void {
    this.streaming = true;
  }
  writeHead(status: number): void {
    this.status = status;
  }
  write(chunk: string): void {
    this.body += chunk;
  }
  async waitForDrain(): Promise<'drained'> {
    return 'drained';
  }
  end(chunk?: string): void {
    if (chunk) this.body += chunk;
  }
  endWithError(error: GatewayError): void {
    this.status = error.status;
    this.body = JSON.stringify(error.toBody());
  }
  abort(): void {
    this.gone = true;
  }
}

const refuseImageFetch: FetchRemoteImage = async () => {
  throw new Error('no image is fetched in this test');
};

function servicesFor(channel: RoutableChannel, dispatcher: Agent): DispatchServices {
  return {
    config: { upstreamHeadersTimeoutMs: 10_000, upstreamBodyTimeoutMs: 10_000, streamWriteTimeoutMs: 0 },
    routing: { current: { channelsFor: () => [channel] } },
    dispatcher,
    remoteImageFetcher: {
      fetchImage: refuseImageFetch,
      forRequest: () => refuseImageFetch,
      close: async () => undefined,
    },
    logger: pino({ level: 'silent' }),
    metrics: createGatewayMetrics(),
    clock: Date.now,
    channelHealth: createChannelHealthService(defaultChannelHealthSettings, Date.now),
  };
}

function canonicalRequest(stream: boolean): CanonicalRequest {
  return {
    model: 'public-model',
    instructions: 'Be brief.',
    messages: [{ role: 'user', content: [{ type: 'text', text: 'hello canonical world' }] }],
    tools: [],
    toolChoice: null,
    parallelToolCalls: null,
    outputFormat: { type: 'text' },
    reasoningEffort: null,
    maxOutputTokens: 200,
    sampling: { temperature: null, topP: null },
    metadata: null,
    stream,
  };
}

function dispatchRequest(stream: boolean): DispatchRequest {
  return {
    modelId: 'public-model',
    stream,
    clientWantsUsage: true,
    responseHeaders: {},
    kind: 'canonical',
    canonical: {
      request: canonicalRequest(stream),
      codec: createChatAnswerCodec({ id: 'chatcmpl-canonical', model: 'public-model', created: 1_700_000_000 }, true),
    },
  };
}

function describeChannel(
  target: ContractTarget,
  extraTests: (context: {
    dispatch: (stream: boolean) => Promise<unknown>;
    upstream: () => ContractUpstream;
  }) => void = () => undefined,
): void {
  let upstream: ContractUpstream;
  let channel: RoutableChannel;
  const dispatcher = new Agent();

  beforeAll(async () => {
    upstream = await target.start();
    channel = {
      id: 'channel-1',
      name: target.name,
      protocol: target.protocol as RoutableChannel['protocol'],
      baseUrl: upstream.url,
      secret: upstream.secret,
      priority: 0,
      weight: 1,
      ownedBy: 'test',
      modelMapping: new Map([['public-model', target.normalModel]]),
      settings: target.settings,
    };
  });
  afterAll(async () => {
    await upstream.close();
    await dispatcher.close();
  });

  extraTests({ dispatch: (stream) => dispatch(stream), upstream: () => upstream });

  async function dispatch(stream: boolean): Promise<{ client: RecordingClientSink; outcome: DispatchOutcome }> {
    const client = new RecordingClientSink();
    const outcome = await dispatchToChannels(dispatchRequest(stream), client, servicesFor(channel, dispatcher));
    return { client, outcome };
  }

  it("answers a non-streamed request in the codec's shape, with the vendor's usage for the bill", async () => {
    const { client, outcome } = await dispatch(false);
    expect(client.status).toBe(200);
    const completion = JSON.parse(client.body) as {
      id: string;
      choices: Array<{ message: { content: string }; finish_reason: string }>;
      usage: { prompt_tokens: number; completion_tokens: number };
    };
    expect(completion.id).toBe('chatcmpl-canonical');
    expect(completion.choices[0]?.message.content).toContain('hello canonical world');
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(outcome.usage?.promptTokens).toBeGreaterThan(0);
    expect(outcome.usage?.completionTokens).toBeGreaterThan(0);
    expect(completion.usage).toMatchObject({
      prompt_tokens: outcome.usage?.promptTokens,
      completion_tokens: outcome.usage?.completionTokens,
    });
    // The answer carried its usage: billing gets nothing else to read, and never the vendor's text.
    expect(outcome.answerUsage).toEqual({});
  });

  it("streams the answer as the codec's frames ending with the usage chunk and [DONE], with the same usage for the bill", async () => {
    const { client, outcome } = await dispatch(true);
    expect(client.status).toBe(200);
    const frames = client.body.split('\n\n').filter(Boolean);
    expect(frames.at(-1)).toBe('data: [DONE]');
    const chunks = frames.slice(0, -1).map(
      (frame) =>
        JSON.parse(frame.replace(/^data: /, '')) as {
          choices: Array<{ delta: { content?: string } }>;
          usage?: { prompt_tokens: number; completion_tokens: number };
        },
    );
    const text = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');
    expect(text).toContain('hello canonical world');
    expect(outcome.usage?.promptTokens).toBeGreaterThan(0);
    expect(chunks.at(-1)?.usage).toMatchObject({
      prompt_tokens: outcome.usage?.promptTokens,
      completion_tokens: outcome.usage?.completionTokens,
    });
    expect(outcome.errorCode).toBeUndefined();
  });
}

for (const target of targets) {
  describe(`a canonical request through the ${target.name} channel`, () => {
    describeChannel(target, target.protocol === 'openai' ? openAiBodyTest(target) : undefined);
  });
}

/** What an OpenAI-wire channel receives: a chat completions body built from the canonical request. */
function openAiBodyTest(target: ContractTarget) {
  return ({
    dispatch,
    upstream,
  }: {
    dispatch: (stream: boolean) => Promise<unknown>;
    upstream: () => ContractUpstream;
  }): void => {
    it('reaches the channel as a chat completions body from the canonical request, asking for the usage when streamed', async () => {
      await dispatch(true);
      const received = upstream().requests.at(-1);
      expect(received?.path).toBe('/v1/chat/completions');
      expect(received?.body).toEqual({
        model: target.normalModel,
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: [{ type: 'text', text: 'hello canonical world' }] },
        ],
        max_completion_tokens: 200,
        stream: true,
        stream_options: { include_usage: true },
      });
    });
  };
}
