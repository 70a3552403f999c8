// What dispatch hands billing from a non-streamed answer: typed usage read once where the answer is read (ADR 0020),
// never the vendor's text. A loopback OpenAI-wire vendor answers without usage; dispatch is called directly.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findUncountedAnswerText } from '../../src/billing/find-uncounted-answer-text.js';
import type { MeteredRequest } from '../../src/billing/request-accounting.js';
import { defaultChannelHealthSettings } from '../../src/config/channel-health-settings.js';
import type { CanonicalRequest } from '../../src/core/canonical/canonical-request.js';
import type { GatewayError } from '../../src/core/gateway-error.js';
import type { ClientSink, ResponseHeaderGroups } from '../../src/dispatch/client-sink.js';
import type { DispatchOutcome, DispatchRequest } from '../../src/dispatch/dispatch-request.js';
import type { DispatchServices } from '../../src/dispatch/dispatch-services.js';
import { dispatchToChannels } from '../../src/dispatch/dispatch-to-channels.js';
import { createGatewayMetrics } from '../../src/observability/gateway-metrics.js';
import { createMessagesAnswerCodec } from '../../src/protocols/anthropic-messages/messages-answer-codec.js';
import { estimateCanonicalRequest } from '../../src/protocols/shared/estimate-canonical-request.js';
import type { FetchRemoteImage } from '../../src/providers/remote-image/remote-image.js';
import { createChannelHealthService } from '../../src/routing/channel-health/channel-health-service.js';
import type { RoutableChannel } from '../../src/routing/routing-table.js';

/** A client sink that keeps the answer's body. */
class RecordingClientSink implements ClientSink {
  gone = false;
  streaming = false;
  needsDrain = false;
  body = '';
  onClientLeave(): () => void {
    return () => undefined;
  }
  async sendAnswer(_status: number, _headers: ResponseHeaderGroups, body: string): Promise<void> {
    this.body = body;
  }
  startStream(): void {
    this.streaming = true;
  }
  writeHead(): void {}
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
    this.body = JSON.stringify(error.toBody());
  }
  abort(): void {
    this.gone = true;
  }
}

/** Chat answers without usage: text for `text-model`, a tool call without content for `tool-model`. */
function chatAnswerWithoutUsage(model: string): unknown {
  const message =
    model === 'tool-model'
      ? {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"city":"Oslo"}' } }],
        }
      : { role: 'assistant', content: 'hello there' };
  const finish = model === 'tool-model' ? 'tool_calls' : 'stop';
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1,
    model,
    choices: [{ index: 0, message, finish_reason: finish }],
  };
}

let server: Server;
let baseUrl: string;
const dispatcher = new Agent();

beforeAll(async () => {
  server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => {
      response.setHeader('content-type', 'application/json');
      if (request.url === '/v1/images/generations') {
        response.end(JSON.stringify({ created: 1, data: [{ b64_json: 'AAAA' }, { b64_json: 'BBBB' }] }));
        return;
      }
      const body: unknown = JSON.parse(text);
      const model = typeof body === 'object' && body !== null && 'model' in body ? String(body.model) : '';
      response.end(JSON.stringify(chatAnswerWithoutUsage(model)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await dispatcher.close();
});

const refuseImageFetch: FetchRemoteImage = async () => {
  throw new Error('no image is fetched in this test');
};

function servicesFor(upstreamModel: string): DispatchServices {
  const channel: RoutableChannel = {
    id: 'channel-1',
    name: 'openai-no-usage',
    protocol: 'openai',
    baseUrl,
    secret: 'sk-test',
    priority: 0,
    weight: 1,
    ownedBy: 'test',
    modelMapping: new Map([['public-model', upstreamModel]]),
    settings: {},
  };
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

const canonicalRequest: CanonicalRequest = {
  model: 'public-model',
  instructions: null,
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }],
  tools: [],
  toolChoice: null,
  parallelToolCalls: null,
  outputFormat: { type: 'text' },
  reasoningEffort: null,
  maxOutputTokens: 100,
  sampling: { temperature: null, topP: null },
  metadata: null,
  stream: false,
};

async function dispatch(request: DispatchRequest, upstreamModel: string): Promise<DispatchOutcome> {
  return dispatchToChannels(request, new RecordingClientSink(), servicesFor(upstreamModel));
}

function meteredRequest(endpoint: MeteredRequest['endpoint']): MeteredRequest {
  return {
    principal: { apiKeyId: 'k', userId: 'u', groupId: 'g', groupName: 'g', expiresAt: null, allowedModels: null },
    model: { id: 'public-model', ownedBy: 'v', kind: 'any', created: 0, inputModalities: ['text'] },
    endpoint,
    estimate: estimateCanonicalRequest(canonicalRequest),
    uploadedBytes: 0,
    uploadedAudioSeconds: undefined,
    streamed: false,
    clientIp: '127.0.0.1',
    receivedAt: 0,
  };
}

describe('dispatch hands billing typed answer usage', () => {
  it('gives the text of a translated Messages answer without usage to count, not nothing', async () => {
    const outcome = await dispatch(
      {
        modelId: 'public-model',
        stream: false,
        clientWantsUsage: false,
        responseHeaders: {},
        kind: 'canonical',
        canonical: {
          request: canonicalRequest,
          codec: createMessagesAnswerCodec({ messageId: 'msg_test', model: 'public-model' }),
        },
      },
      'text-model',
    );
    expect(outcome).toMatchObject({ status: 200, usage: undefined, answerUsage: { text: 'hello there' } });
    expect(findUncountedAnswerText(meteredRequest('messages'), { ...outcome, finishedAt: 0 })).toBe('hello there');
  });

  it('counts the tool call of an OpenAI-wire chat answer without usage or content', async () => {
    const outcome = await dispatch(
      {
        modelId: 'public-model',
        stream: false,
        clientWantsUsage: false,
        responseHeaders: {},
        kind: 'openai-wire',
        upstreamPath: '/chat/completions',
        buildBody: (upstreamModelId) => JSON.stringify({ model: upstreamModelId, messages: [] }),
      },
      'tool-model',
    );
    expect(outcome).toMatchObject({ status: 200, usage: undefined, answerUsage: { text: '{"city":"Oslo"}' } });
  });

  it('counts the images an images answer returned', async () => {
    const outcome = await dispatch(
      {
        modelId: 'public-model',
        stream: false,
        clientWantsUsage: false,
        responseHeaders: {},
        kind: 'openai-wire',
        upstreamPath: '/images/generations',
        buildBody: () => JSON.stringify({ prompt: 'x', n: 4 }),
      },
      'image-model',
    );
    expect(outcome).toMatchObject({ status: 200, answerUsage: { images: 2 } });
  });
});
