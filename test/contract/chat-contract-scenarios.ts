// The named scenarios every adapter must pass through the gateway's /v1/chat/completions, driven by the official openai SDK.
import OpenAI from 'openai';
import { expect, vi } from 'vitest';
import {
  contractModels,
  postToGateway,
  readEventData,
  type ContractContext,
  type ContractScenario,
} from './contract-context.js';

type Chunk = OpenAI.Chat.ChatCompletionChunk;

const weatherTool: OpenAI.Chat.ChatCompletionTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Weather for a city',
    parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
  },
};
const timeTool: OpenAI.Chat.ChatCompletionTool = {
  type: 'function',
  function: {
    name: 'get_time',
    description: 'Local time in a city',
    parameters: { type: 'object', properties: { query: { type: 'string' } } },
  },
};
const redPixelPng = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const longUserText = 'please stream these several words back to me in order';

async function collect(stream: AsyncIterable<Chunk>): Promise<Chunk[]> {
  const chunks: Chunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

async function expectApiError(promise: Promise<unknown>, status: number, code: string): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(OpenAI.APIError);
  expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(status);
  expect((error as InstanceType<typeof OpenAI.APIError>).code).toBe(code);
}

function expectNoUpstreamLeak(context: ContractContext, text: string): void {
  expect(text).not.toContain(context.upstream.secret);
  expect(text).not.toContain(context.upstream.url);
}

async function toolRoundTrip(context: ContractContext, tools: OpenAI.Chat.ChatCompletionTool[]): Promise<void> {
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'weather and time in Paris' }];
  const first = await context.client.chat.completions.create({ model: contractModels.chat, messages, tools });
  const choice = first.choices[0];
  expect(choice?.finish_reason).toBe('tool_calls');
  const calls = (choice?.message.tool_calls ?? []).filter((call) => call.type === 'function');
  expect(calls.map((call) => call.function.name)).toEqual(
    tools.map((tool) => (tool.type === 'function' ? tool.function.name : '')),
  );
  for (const call of calls) {
    expect(call.id).not.toBe('');
    expect(JSON.parse(call.function.arguments)).toEqual({ query: 'weather and time in Paris' });
  }
  const results = calls.map((call, index) => ({
    role: 'tool' as const,
    tool_call_id: call.id,
    content: index === 0 ? 'sunny' : '12:00',
  }));
  const second = await context.client.chat.completions.create({
    model: contractModels.chat,
    messages: [...messages, { role: 'assistant', content: null, tool_calls: calls }, ...results],
    tools,
  });
  expect(second.choices[0]?.finish_reason).toBe('stop');
  expect(second.choices[0]?.message.content).toContain('sunny');
  if (calls.length > 1) expect(second.choices[0]?.message.content).toContain('12:00');
}

/** Every chat scenario, in the order they run. */
export const chatContractScenarios: ContractScenario[] = [
  {
    name: 'plain text',
    async run({ client }) {
      const completion = await client.chat.completions.create({
        model: contractModels.chat,
        messages: [{ role: 'user', content: 'hello there' }],
      });
      expect(completion.object).toBe('chat.completion');
      // The passthrough reports the vendor's model name unchanged (zero-copy); translated adapters report the public id.
      expect(completion.model).toEqual(expect.any(String));
      expect(completion.choices[0]?.message.role).toBe('assistant');
      expect(completion.choices[0]?.message.content).toBe('Echo: hello there');
      expect(completion.choices[0]?.finish_reason).toBe('stop');
    },
  },
  {
    name: 'multi-turn with system',
    async run({ client }) {
      const completion = await client.chat.completions.create({
        model: contractModels.chat,
        messages: [
          { role: 'system', content: 'You are terse.' },
          { role: 'user', content: 'first question' },
          { role: 'assistant', content: 'first answer' },
          { role: 'user', content: 'second question' },
          { role: 'user', content: 'and a follow-up' },
        ],
      });
      expect(completion.choices[0]?.message.content).toContain('follow-up');
    },
  },
  {
    name: 'image input',
    async run({ client, images }) {
      const completion = await client.chat.completions.create({
        model: contractModels.chat,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'describe these images' },
              { type: 'image_url', image_url: { url: `data:image/png;base64,${redPixelPng}` } },
              // Vendors that take URLs get it as is; those that take bytes only get it fetched and inlined.
              { type: 'image_url', image_url: { url: `${images.url}/red-pixel.png` } },
            ],
          },
        ],
      });
      expect(completion.choices[0]?.message.content).toContain('describe these images');
    },
  },
  {
    name: 'single tool call with a tool-result round trip',
    run: (context) => toolRoundTrip(context, [weatherTool]),
  },
  {
    name: 'parallel tool calls with a tool-result round trip',
    run: (context) => toolRoundTrip(context, [weatherTool, timeTool]),
  },
  {
    name: 'streamed text',
    async run({ client }) {
      const chunks = await collect(
        await client.chat.completions.create({
          model: contractModels.chat,
          messages: [{ role: 'user', content: longUserText }],
          stream: true,
        }),
      );
      expect(chunks.length).toBeGreaterThan(3);
      expect(chunks[0]?.choices[0]?.delta.role).toBe('assistant');
      expect(new Set(chunks.map((chunk) => chunk.id)).size).toBe(1);
      expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe(`Echo: ${longUserText}`);
      expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('stop');
      expect(chunks.every((chunk) => chunk.usage === undefined || chunk.usage === null)).toBe(true);
    },
  },
  {
    name: 'streamed usage chunk when the client asks for it',
    async run({ client }) {
      const chunks = await collect(
        await client.chat.completions.create({
          model: contractModels.chat,
          messages: [{ role: 'user', content: 'count me' }],
          stream: true,
          stream_options: { include_usage: true },
        }),
      );
      const last = chunks.at(-1);
      expect(last?.choices).toEqual([]);
      expect(last?.usage?.completion_tokens).toBeGreaterThan(0);
      expect((last?.usage?.prompt_tokens ?? 0) + (last?.usage?.completion_tokens ?? 0)).toBe(last?.usage?.total_tokens);
    },
  },
  {
    name: 'streamed tool-call arguments split across chunks',
    async run({ client }) {
      const chunks = await collect(
        await client.chat.completions.create({
          model: contractModels.chat,
          messages: [{ role: 'user', content: 'weather in Paris' }],
          tools: [weatherTool],
          stream: true,
        }),
      );
      const toolDeltas = chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? []);
      const header = toolDeltas[0];
      expect(header?.id).toBeTruthy();
      expect(header?.type).toBe('function');
      expect(header?.function?.name).toBe('get_weather');
      const argumentPieces = toolDeltas.map((delta) => delta.function?.arguments ?? '').filter((piece) => piece !== '');
      expect(argumentPieces.length).toBeGreaterThan(1);
      expect(toolDeltas.every((delta) => delta.index === 0)).toBe(true);
      expect(JSON.parse(argumentPieces.join(''))).toEqual({ query: 'weather in Paris' });
      expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('tool_calls');
    },
  },
  {
    name: 'stop sequence',
    async run({ client }) {
      const completion = await client.chat.completions.create({
        model: contractModels.chat,
        messages: [{ role: 'user', content: 'alpha beta HALT gamma' }],
        stop: ['HALT'],
      });
      expect(completion.choices[0]?.message.content?.trim()).toBe('Echo: alpha beta');
      expect(completion.choices[0]?.finish_reason).toBe('stop');
    },
  },
  {
    name: 'max_tokens cut-off gives finish_reason length',
    async run({ client }) {
      const completion = await client.chat.completions.create({
        model: contractModels.chat,
        messages: [{ role: 'user', content: 'one two three four five' }],
        max_tokens: 3,
      });
      expect(completion.choices[0]?.message.content).toBe('Echo: one two');
      expect(completion.choices[0]?.finish_reason).toBe('length');
    },
  },
  {
    name: 'usage totals add up',
    async run({ client }) {
      const completion = await client.chat.completions.create({
        model: contractModels.chat,
        messages: [{ role: 'user', content: 'how many tokens is this' }],
      });
      const usage = completion.usage;
      expect(usage?.prompt_tokens).toBeGreaterThan(0);
      expect(usage?.completion_tokens).toBeGreaterThan(0);
      expect((usage?.prompt_tokens ?? 0) + (usage?.completion_tokens ?? 0)).toBe(usage?.total_tokens);
    },
  },
  {
    name: 'usage records prompt-cache reads',
    async run({ client }) {
      const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
        { role: 'system', content: 'a long shared system prompt worth caching' },
        { role: 'user', content: 'cached question' },
      ];
      const completion = await client.chat.completions.create({ model: contractModels.cache, messages });
      const cached = completion.usage?.prompt_tokens_details?.cached_tokens ?? 0;
      expect(cached).toBeGreaterThan(0);
      expect(cached).toBeLessThan(completion.usage?.prompt_tokens ?? 0);
      const chunks = await collect(
        await client.chat.completions.create({
          model: contractModels.cache,
          messages,
          stream: true,
          stream_options: { include_usage: true },
        }),
      );
      expect(chunks.at(-1)?.usage?.prompt_tokens_details?.cached_tokens).toBe(cached);
      expect(chunks.at(-1)?.usage?.prompt_tokens).toBe(completion.usage?.prompt_tokens);
    },
  },
  {
    name: 'a parameter the vendor cannot honour is refused with a 400 naming it',
    async run(context) {
      const refused = context.target.refusedParameter;
      if (!refused)
        throw new Error(`${context.target.name} must list this scenario as unsupported or name a refused parameter`);
      const requestsBefore = context.upstream.requests.length;
      const answer = await postToGateway(context, '/v1/chat/completions', {
        model: contractModels.chat,
        messages: [{ role: 'user', content: 'hi' }],
        ...refused.fields,
      });
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.text)).toMatchObject({ error: { type: 'invalid_request_error', param: refused.param } });
      expect(context.upstream.requests.length).toBe(requestsBefore);
    },
  },
  {
    name: 'upstream 400 becomes 400 invalid_request_error',
    async run(context) {
      const answer = await postToGateway(context, '/v1/chat/completions', {
        model: contractModels.error400,
        messages: [{ role: 'user', content: 'hi' }],
      });
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.text)).toMatchObject({
        error: { type: 'invalid_request_error', code: 'invalid_request_error' },
      });
      expectNoUpstreamLeak(context, answer.text);
    },
  },
  {
    name: 'upstream 401 becomes 503 (the channel credentials, not the client key)',
    run: ({ client }) =>
      expectApiError(
        client.chat.completions.create({ model: contractModels.error401, messages: [{ role: 'user', content: 'hi' }] }),
        503,
        'service_unavailable',
      ),
  },
  {
    name: 'upstream 429 becomes 429 rate_limit_exceeded',
    run: ({ client }) =>
      expectApiError(
        client.chat.completions.create({ model: contractModels.error429, messages: [{ role: 'user', content: 'hi' }] }),
        429,
        'rate_limit_exceeded',
      ),
  },
  {
    name: 'upstream 500 becomes 500 server_error',
    run: ({ client }) =>
      expectApiError(
        client.chat.completions.create({ model: contractModels.error500, messages: [{ role: 'user', content: 'hi' }] }),
        500,
        'server_error',
      ),
  },
  {
    name: 'upstream overloaded becomes 503 service_unavailable',
    run: ({ client }) =>
      expectApiError(
        client.chat.completions.create({
          model: contractModels.overloaded,
          messages: [{ role: 'user', content: 'hi' }],
        }),
        503,
        'service_unavailable',
      ),
  },
  {
    name: 'an error before the first byte fails over to another channel',
    async run({ client, upstream }) {
      const before = upstream.requests.length;
      const chunks = await collect(
        await client.chat.completions.create({
          model: contractModels.failover,
          messages: [{ role: 'user', content: 'fail over please' }],
          stream: true,
        }),
      );
      expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe('Echo: fail over please');
      expect(upstream.requests.length - before).toBe(2);
    },
  },
  {
    name: 'a stream that breaks before its first event fails over to another channel',
    async run({ client, upstream }) {
      const before = upstream.requests.length;
      const chunks = await collect(
        await client.chat.completions.create({
          model: contractModels.failoverEarly,
          messages: [{ role: 'user', content: 'fail over early' }],
          stream: true,
        }),
      );
      expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe('Echo: fail over early');
      expect(upstream.requests.length - before).toBe(2);
    },
  },
  {
    name: 'an error after the first byte becomes an error event and no [DONE]',
    async run(context) {
      const answer = await postToGateway(context, '/v1/chat/completions', {
        model: contractModels.brokenStream,
        messages: [{ role: 'user', content: longUserText }],
        stream: true,
      });
      expect(answer.status).toBe(200);
      const events = readEventData(answer.text);
      expect(events).not.toContain('[DONE]');
      expect(events.length).toBeGreaterThan(1);
      expect(JSON.parse(events.at(-1) ?? '{}')).toMatchObject({ error: { code: 'server_error' } });
      expectNoUpstreamLeak(context, answer.text);
    },
  },
  {
    name: "the vendor's mid-stream error event becomes an error event and no [DONE]",
    async run(context) {
      const answer = await postToGateway(context, '/v1/chat/completions', {
        model: contractModels.streamErrorEvent,
        messages: [{ role: 'user', content: longUserText }],
        stream: true,
      });
      const events = readEventData(answer.text);
      expect(events).not.toContain('[DONE]');
      expect(events.some((event) => event.includes('"content"'))).toBe(true);
      expect(JSON.parse(events.at(-1) ?? '{}')).toMatchObject({ error: { code: context.target.midStreamErrorCode } });
    },
  },
  {
    name: 'embeddings as floats and as base64',
    async run({ client }) {
      const input = ['first text', 'a second, longer text'];
      const floats = await client.embeddings.create({
        model: contractModels.embedding,
        input,
        encoding_format: 'float',
        dimensions: 8,
      });
      // Without encoding_format the SDK asks for base64 and decodes the little-endian Float32 bytes itself.
      const decoded = await client.embeddings.create({ model: contractModels.embedding, input, dimensions: 8 });
      expect(floats.data.map((entry) => entry.index)).toEqual([0, 1]);
      expect(floats.data[0]?.embedding).toHaveLength(8);
      decoded.data.forEach((entry, index) => {
        entry.embedding.forEach((value, position) =>
          expect(value).toBeCloseTo(floats.data[index]?.embedding[position] ?? Number.NaN, 6),
        );
      });
      expect(floats.usage.prompt_tokens).toBeGreaterThan(0);
      expect(floats.usage.total_tokens).toBe(floats.usage.prompt_tokens);
    },
  },
  {
    // A non-streamed request is not aborted once sent: its answer is read and billed (test/billing/client-abort-billing.test.ts).
    name: 'a client abort of a stream reaches the upstream',
    async run({ client, upstream }) {
      const abortedBefore = upstream.abortedRequestCount();
      const requestsBefore = upstream.requests.length;
      const controller = new AbortController();
      const pending = client.chat.completions.create(
        { model: contractModels.hang, messages: [{ role: 'user', content: 'never answered' }], stream: true },
        { signal: controller.signal },
      );
      const settled = pending.then(
        () => 'answered',
        () => 'aborted',
      );
      await vi.waitFor(() => expect(upstream.requests.length).toBeGreaterThan(requestsBefore), {
        timeout: 10_000,
        interval: 10,
      });
      controller.abort();
      expect(await settled).toBe('aborted');
      await vi.waitFor(() => expect(upstream.abortedRequestCount()).toBeGreaterThan(abortedBefore), {
        timeout: 10_000,
        interval: 10,
      });
    },
  },
];
