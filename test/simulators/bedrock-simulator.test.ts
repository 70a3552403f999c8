// The Bedrock adapter against the Bedrock simulator: real SigV4, real event-stream framing, AWS-style validation.
import { Readable } from 'node:stream';
import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CanonicalStreamPart } from '../../src/core/canonical/canonical-stream-part.js';
import { foldStreamParts } from '../../src/core/canonical/fold-stream-parts.js';
import type { ChatCompletionRequest } from '../../src/core/openai-chat-request.js';
import { tokenUsageOfCanonical } from '../../src/core/token-usage-of-canonical.js';
import { chatRequestToCanonical } from '../../src/protocols/openai-chat/chat-request-to-canonical.js';
import { encodeChatCompletion } from '../../src/protocols/openai-chat/encode-chat-completion.js';
import { bedrockVendorAdapter } from '../../src/providers/bedrock/bedrock-vendor-adapter.js';
import { signBedrockRequest } from '../../src/providers/bedrock/sign-bedrock-request.js';
import type { VendorCall, VendorHttpRequest } from '../../src/providers/vendor-adapter.js';
import { startBedrockSimulator, type BedrockSimulator } from './bedrock-simulator.js';

let simulator: BedrockSimulator;

beforeAll(async () => {
  simulator = await startBedrockSimulator();
});
afterAll(() => simulator.close());
beforeEach(() => simulator.reset());

const claudeId = 'anthropic.claude-3-5-sonnet-20240620-v1:0';
const weatherTool = {
  type: 'function',
  function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
} as const;

function callFor(
  upstreamModelId: string,
  fields: { stream?: boolean; secret?: string; region?: string } = {},
): VendorCall {
  return {
    channel: {
      baseUrl: simulator.url,
      secret: fields.secret ?? simulator.channelSecret,
      settings: fields.region ? { region: fields.region } : {},
    },
    upstreamModelId,
    publicModelId: 'public-model',
    maxOutputTokens: undefined,
    stream: fields.stream ?? false,
    clock: Date.now,
  };
}

async function send(vendorRequest: VendorHttpRequest) {
  // The same header merge the translated-channel relay does: its defaults first, the adapter's signed headers last.
  return request(vendorRequest.url, {
    method: 'POST',
    headers: { accept: 'application/json', ...vendorRequest.headers },
    body: vendorRequest.body,
  });
}

/** Encodes a chat request the way dispatch does for chat clients: translated to the canonical request first. */
async function encodeChat(chatRequest: ChatCompletionRequest, call: VendorCall): Promise<VendorHttpRequest> {
  return bedrockVendorAdapter.encodeRequest(chatRequestToCanonical(chatRequest), call);
}

type CompleteResult =
  | { status: number; failure: ReturnType<typeof bedrockVendorAdapter.mapFailure>; text: string }
  | {
      status: 200;
      failure?: undefined;
      completion: ReturnType<typeof encodeChatCompletion>;
      usage: ReturnType<typeof tokenUsageOfCanonical> | undefined;
      text: string;
    };

async function complete(chatRequest: Partial<ChatCompletionRequest>, call: VendorCall): Promise<CompleteResult> {
  const response = await send(await encodeChat({ model: 'x', messages: [], ...chatRequest }, call));
  const text = await response.body.text();
  if (response.statusCode !== 200)
    return {
      status: response.statusCode,
      failure: bedrockVendorAdapter.mapFailure(response.statusCode, text, undefined),
      text,
    };
  // Written for a chat client the way dispatch writes it: folded, then encoded; the usage as billing reads it.
  const answer = foldStreamParts(bedrockVendorAdapter.decodeResponse(text, call));
  const completion = encodeChatCompletion(answer, { id: 'chatcmpl-test', model: 'public-model', created: 0 });
  return { status: 200, completion, usage: answer.usage ? tokenUsageOfCanonical(answer.usage) : undefined, text };
}

async function streamBytes(chatRequest: Partial<ChatCompletionRequest>, call: VendorCall): Promise<Buffer> {
  const response = await send(await encodeChat({ model: 'x', messages: [], ...chatRequest }, call));
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toBe('application/vnd.amazon.eventstream');
  return Buffer.from(await response.body.arrayBuffer());
}

async function collect(parts: AsyncIterable<CanonicalStreamPart>): Promise<CanonicalStreamPart[]> {
  const collected: CanonicalStreamPart[] = [];
  for await (const part of parts) collected.push(part);
  return collected;
}

function chunksOf(bytes: Buffer, length: number): Readable {
  const chunks: Buffer[] = [];
  for (let start = 0; start < bytes.length; start += length) chunks.push(bytes.subarray(start, start + length));
  return Readable.from(chunks);
}

describe('Bedrock adapter against the simulator', () => {
  it('sends a correctly signed Converse request for a model id with a colon and maps the echo answer', async () => {
    const result = await complete(
      {
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Hello there' },
        ],
      },
      callFor(claudeId),
    );
    expect(result.status).toBe(200);
    if (!('completion' in result)) throw new Error(result.text);
    expect(result.completion.choices[0]).toMatchObject({
      message: { content: 'Echo: Hello there' },
      finish_reason: 'stop',
    });
    expect(result.usage).toEqual({
      promptTokens: 4,
      completionTokens: 3,
      totalTokens: 7,
      cachedPromptTokens: 0,
      reasoningTokens: 0,
    });
    expect(simulator.requests[0]).toMatchObject({
      modelId: claudeId,
      operation: 'converse',
      path: '/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0/converse',
    });
  });

  it('signs temporary credentials with their session token', async () => {
    const withToken = await startBedrockSimulator({
      credentials: {
        accessKeyId: 'ASIATEMPORARY0000001',
        secretAccessKey: 'temporary-secret',
        sessionToken: 'FwoGZXIvYXdzEJr//token+==',
      },
    });
    try {
      const call = {
        ...callFor(claudeId),
        channel: { baseUrl: withToken.url, secret: withToken.channelSecret, settings: {} },
      };
      const result = await complete({ messages: [{ role: 'user', content: 'Hi' }] }, call);
      expect(result.status).toBe(200);
    } finally {
      await withToken.close();
    }
  });

  it('is refused like AWS when the signature does not match: tampered body, wrong secret, wrong region', async () => {
    const signed = await encodeChat({ model: 'x', messages: [{ role: 'user', content: 'Hi' }] }, callFor(claudeId));
    const tampered = await send({ ...signed, body: signed.body.replace('Hi', 'Yo') });
    expect(tampered.statusCode).toBe(403);
    expect(await tampered.body.json()).toEqual({
      message: expect.stringContaining('The request signature we calculated does not match'),
    });

    const wrongSecret = await complete(
      { messages: [{ role: 'user', content: 'Hi' }] },
      callFor(claudeId, { secret: `${simulator.channelSecret.split(':')[0]}:wrong` }),
    );
    expect(wrongSecret.status).toBe(403);
    expect(wrongSecret.failure).toMatchObject({ kind: 'retryable-failure', error: { code: 'service_unavailable' } });

    const wrongRegion = await complete(
      { messages: [{ role: 'user', content: 'Hi' }] },
      callFor(claudeId, { region: 'eu-west-1' }),
    );
    expect(wrongRegion.status).toBe(403);
  });

  it('refuses an unknown field and bad inference settings with a 400 ValidationException', async () => {
    const credentials = {
      accessKeyId: simulator.channelSecret.split(':')[0] ?? '',
      secretAccessKey: simulator.channelSecret.split(':')[1] ?? '',
    };
    const sign = (body: object) =>
      signBedrockRequest({
        url: `${simulator.url}/model/${encodeURIComponent(claudeId)}/converse`,
        body: JSON.stringify(body),
        region: 'us-east-1',
        credentials,
        signingTime: Date.now(),
      });
    const unknownField = await send(
      await sign({ messages: [{ role: 'user', content: [{ text: 'Hi' }] }], temperature: 1 }),
    );
    expect(unknownField.statusCode).toBe(400);
    expect(unknownField.headers['x-amzn-errortype']).toMatch(/^ValidationException/);
    const zeroTokens = await send(
      await sign({ messages: [{ role: 'user', content: [{ text: 'Hi' }] }], inferenceConfig: { maxTokens: 0 } }),
    );
    expect(zeroTokens.statusCode).toBe(400);
    const orphanResult = await send(
      await sign({
        messages: [{ role: 'user', content: [{ toolResult: { toolUseId: 'x', content: [{ text: 'a' }] } }] }],
        toolConfig: { tools: [{ toolSpec: { name: 'f', inputSchema: { json: {} } } }] },
      }),
    );
    expect(orphanResult.statusCode).toBe(400);
    // 'R0lGODlh' is base64 of a GIF header: bytes that are not the stated png.
    const mislabelledImage = await send(
      await sign({
        messages: [
          { role: 'user', content: [{ image: { format: 'png', source: { bytes: 'R0lGODlhAQABAAAAACw=' } } }] },
        ],
      }),
    );
    expect(mislabelledImage.statusCode).toBe(400);
    expect(await mislabelledImage.body.text()).toContain('not a png image');
  });

  it('maps a conversation Bedrock refuses (starting with an assistant turn) to a final invalid_request_error', async () => {
    const result = await complete(
      {
        messages: [
          { role: 'assistant', content: 'Hello' },
          { role: 'user', content: 'Hi' },
        ],
      },
      callFor(claudeId),
    );
    expect(result.status).toBe(400);
    expect(result.failure).toMatchObject({
      kind: 'final-failure',
      error: { code: 'invalid_request_error', message: expect.stringContaining('must start with a user message') },
    });
  });

  it('round-trips a tool conversation: tool calls, then tool results answered with text', async () => {
    const first = await complete(
      { messages: [{ role: 'user', content: 'Weather in Paris?' }], tools: [weatherTool] },
      callFor(claudeId),
    );
    if (!('completion' in first)) throw new Error(first.text);
    const message = first.completion.choices[0]?.message;
    expect(first.completion.choices[0]?.finish_reason).toBe('tool_calls');
    expect(message?.tool_calls?.[0]).toMatchObject({
      type: 'function',
      function: { name: 'get_weather', arguments: '{"query":"Weather in Paris?"}' },
    });
    const toolCalls = message?.tool_calls ?? [];
    const second = await complete(
      {
        messages: [
          { role: 'user', content: 'Weather in Paris?' },
          { role: 'assistant', content: null, tool_calls: toolCalls },
          { role: 'tool', tool_call_id: toolCalls[0]?.id ?? '', content: 'sunny' },
        ],
        tools: [weatherTool],
      },
      callFor(claudeId),
    );
    if (!('completion' in second)) throw new Error(second.text);
    expect(second.completion.choices[0]).toMatchObject({
      message: { content: 'Tool results: sunny' },
      finish_reason: 'stop',
    });
  });

  it('cuts at max_tokens and stop sequences like the model would', async () => {
    const cut = await complete(
      { messages: [{ role: 'user', content: 'one two three four' }], max_tokens: 2 },
      callFor(claudeId),
    );
    if (!('completion' in cut)) throw new Error(cut.text);
    expect(cut.completion.choices[0]).toMatchObject({ message: { content: 'Echo: one' }, finish_reason: 'length' });
  });

  it('reports cache reads and writes inside the prompt count', async () => {
    const result = await complete(
      { messages: [{ role: 'user', content: 'a b c d e f g h' }] },
      callFor('sim-cached-prompt'),
    );
    if (!('usage' in result)) throw new Error(result.text);
    expect(result.usage).toEqual({
      promptTokens: 8,
      completionTokens: 9,
      totalTokens: 17,
      cachedPromptTokens: 4,
      reasoningTokens: 0,
      cacheWritePromptTokens: 2,
    });
  });

  it.each([
    ['sim-error-400', 'final-failure', 'invalid_request_error'],
    ['sim-error-401', 'retryable-failure', 'service_unavailable'],
    ['sim-error-403', 'retryable-failure', 'service_unavailable'],
    ['sim-error-404', 'retryable-failure', 'model_not_found'],
    ['sim-error-429', 'retryable-failure', 'rate_limit_exceeded'],
    ['sim-error-500', 'retryable-failure', 'server_error'],
    ['sim-error-503', 'retryable-failure', 'service_unavailable'],
  ])('maps %s to a %s with code %s', async (modelId, kind, code) => {
    const result = await complete({ messages: [{ role: 'user', content: 'Hi' }] }, callFor(modelId));
    expect(result.failure).toMatchObject({ kind, error: { code } });
  });
});

describe('Bedrock streams from the simulator', () => {
  const toolStreamRequest: Partial<ChatCompletionRequest> = {
    messages: [{ role: 'user', content: 'Weather?' }],
    tools: [weatherTool, { type: 'function', function: { name: 'get_time' } }],
  };

  it('decodes a streamed text answer straight from the response body', async () => {
    const call = callFor(claudeId, { stream: true });
    const response = await send(
      await encodeChat({ model: 'x', messages: [{ role: 'user', content: 'Hello stream' }] }, call),
    );
    const parts = await collect(bedrockVendorAdapter.decodeStream(response.body, call));
    expect(simulator.requests[0]?.operation).toBe('converse-stream');
    expect(parts).toEqual([
      { type: 'response-start' },
      { type: 'text-start', blockIndex: 0 },
      { type: 'text-delta', blockIndex: 0, text: 'Echo: ' },
      { type: 'text-delta', blockIndex: 0, text: 'Hello ' },
      { type: 'text-delta', blockIndex: 0, text: 'stream' },
      { type: 'text-end', blockIndex: 0 },
      { type: 'finish', finish: { reason: 'stop', rawReason: 'end_turn' } },
      {
        type: 'usage',
        usage: {
          inputTokens: 2,
          cacheReadInputTokens: 0,
          cacheWriteInputTokens: 0,
          outputTokens: 3,
          reasoningTokens: 0,
        },
      },
    ]);
  });

  it.each([1, 7])('decodes parallel streamed tool calls delivered in %i-byte chunks', async (chunkLength) => {
    const call = callFor(claudeId, { stream: true });
    const bytes = await streamBytes(toolStreamRequest, call);
    const parts = await collect(bedrockVendorAdapter.decodeStream(chunksOf(bytes, chunkLength), call));
    const starts = parts.filter((part) => part.type === 'tool-call-start');
    expect(starts).toEqual([
      { type: 'tool-call-start', blockIndex: 0, callId: expect.stringMatching(/^tooluse_/), name: 'get_weather' },
      { type: 'tool-call-start', blockIndex: 1, callId: expect.stringMatching(/^tooluse_/), name: 'get_time' },
    ]);
    const argumentsOf = (index: number) =>
      parts
        .flatMap((part) => (part.type === 'tool-call-delta' && part.blockIndex === index ? [part.argumentsDelta] : []))
        .join('');
    expect(argumentsOf(0)).toBe('{"query":"Weather?"}');
    expect(argumentsOf(1)).toBe('{"query":"Weather?"}');
    expect(parts.filter((part) => part.type === 'tool-call-delta').length).toBeGreaterThan(2);
    expect(parts.filter((part) => part.type === 'tool-call-end')).toHaveLength(2);
    expect(parts.at(-2)).toEqual({ type: 'finish', finish: { reason: 'tool-calls', rawReason: 'tool_use' } });
    expect(parts.at(-1)).toMatchObject({ type: 'usage', usage: { outputTokens: 20 } });
  });

  it.each([
    ['sim-stream-error-event', 'service_unavailable'],
    ['sim-stream-exception-throttlingException', 'rate_limit_exceeded'],
    ['sim-stream-exception-modelStreamErrorException', 'server_error'],
    ['sim-stream-exception-serviceUnavailableException', 'service_unavailable'],
  ])('turns the exception event of %s into a final error part', async (modelId, code) => {
    const call = callFor(modelId, { stream: true });
    const parts = await collect(
      bedrockVendorAdapter.decodeStream(
        chunksOf(await streamBytes({ messages: [{ role: 'user', content: 'a b c d' }] }, call), 7),
        call,
      ),
    );
    expect(parts.filter((part) => part.type === 'text-delta')).toHaveLength(2);
    expect(parts.at(-1)).toMatchObject({ type: 'error', failure: { code } });
    expect(parts.some((part) => part.type === 'finish')).toBe(false);
  });

  it('never reports a broken stream as complete', async () => {
    const call = callFor('sim-broken-stream', { stream: true });
    const response = await send(
      await encodeChat({ model: 'x', messages: [{ role: 'user', content: 'a b c d' }] }, call),
    );
    const parts: CanonicalStreamPart[] = [];
    const failure = await (async () => {
      for await (const part of bedrockVendorAdapter.decodeStream(response.body, call)) parts.push(part);
    })().catch((error: unknown) => error);
    // Either the socket error propagates, or the decoder saw a clean end and reports the cut-off answer.
    if (failure === undefined) expect(parts.at(-1)).toMatchObject({ type: 'error' });
    expect(parts.some((part) => part.type === 'finish')).toBe(false);
  });

  it('breaks after the headers and before the first frame for sim-broken-before-first-event, so the caller can fail over', async () => {
    const call = callFor('sim-broken-before-first-event', { stream: true });
    const response = await send(await encodeChat({ model: 'x', messages: [{ role: 'user', content: 'a' }] }, call));
    expect(response.statusCode).toBe(200);
    const parts: CanonicalStreamPart[] = [];
    const failure = await (async () => {
      for await (const part of bedrockVendorAdapter.decodeStream(response.body, call)) parts.push(part);
    })().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(parts).toEqual([]);
  });

  it('counts a client that leaves mid-stream as an aborted request', async () => {
    const call = callFor('sim-slow-stream', { stream: true });
    const controller = new AbortController();
    const vendorRequest = await encodeChat(
      { model: 'x', messages: [{ role: 'user', content: 'a b c d e f g h' }] },
      call,
    );
    const response = await request(vendorRequest.url, {
      method: 'POST',
      headers: vendorRequest.headers,
      body: vendorRequest.body,
      signal: controller.signal,
    });
    const parts: CanonicalStreamPart[] = [];
    await (async () => {
      for await (const part of bedrockVendorAdapter.decodeStream(response.body, call)) {
        parts.push(part);
        if (part.type === 'text-delta') controller.abort();
      }
    })().catch(() => undefined);
    await expect.poll(() => simulator.abortedRequestCount()).toBe(1);
  });
});
