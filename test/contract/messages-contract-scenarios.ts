// The named scenarios every adapter must pass through the gateway's /v1/messages, driven by the official @anthropic-ai/sdk.
import Anthropic from '@anthropic-ai/sdk';
import { expect, vi } from 'vitest';
import { contractModels, readSseEvents, type ContractContext, type ContractScenario } from './contract-context.js';

type MessageParam = Anthropic.MessageParam;

const weatherTool: Anthropic.Tool = {
  name: 'get_weather',
  description: 'Weather for a city',
  input_schema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
};
const timeTool: Anthropic.Tool = {
  name: 'get_time',
  description: 'Local time in a city',
  input_schema: { type: 'object', properties: { query: { type: 'string' } } },
};
const redPixelPng = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const longUserText = 'please stream these several words back to me in order';
const maxTokens = 1_024;

function textOf(message: Anthropic.Message): string {
  return message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

/** Rejects with the SDK's error class for the status, and Anthropic's error type in the body. */
async function expectAnthropicError(promise: Promise<unknown>, status: number, errorType: string): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(Anthropic.APIError);
  const apiError = error as InstanceType<typeof Anthropic.APIError>;
  expect(apiError.status).toBe(status);
  expect(apiError.error).toMatchObject({ type: 'error', error: { type: errorType } });
}

async function toolRoundTrip(context: ContractContext, tools: Anthropic.Tool[]): Promise<void> {
  const { anthropic } = context;
  const messages: MessageParam[] = [{ role: 'user', content: 'weather and time in Paris' }];
  const first = await anthropic.messages.create({ model: contractModels.chat, max_tokens: maxTokens, messages, tools });
  expect(first.stop_reason).toBe('tool_use');
  const calls = first.content.filter((block): block is Anthropic.ToolUseBlock => block.type === 'tool_use');
  expect(calls.map((call) => call.name)).toEqual(tools.map((tool) => tool.name));
  for (const call of calls) {
    expect(call.id).toMatch(/^[a-zA-Z0-9_-]+$/);
    expect(call.input).toEqual({ query: 'weather and time in Paris' });
  }
  const second = await anthropic.messages.create({
    model: contractModels.chat,
    max_tokens: maxTokens,
    tools,
    messages: [
      ...messages,
      { role: 'assistant', content: first.content },
      {
        role: 'user',
        content: calls.map((call, index) => ({
          type: 'tool_result' as const,
          tool_use_id: call.id,
          content: index === 0 ? 'sunny' : '12:00',
        })),
      },
    ],
  });
  expect(second.stop_reason).toBe('end_turn');
  expect(textOf(second)).toContain('sunny');
  if (calls.length > 1) expect(textOf(second)).toContain('12:00');
}

/** Posts to /v1/messages as Claude Code does (x-api-key, anthropic-version) and reads the answer whole. */
async function postMessages(context: ContractContext, body: unknown): Promise<{ status: number; text: string }> {
  const response = await fetch(`${context.gateway.url}/v1/messages?beta=true`, {
    method: 'POST',
    headers: { 'x-api-key': context.apiKey, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

/** Every Messages scenario, in the order they run. */
export const messagesContractScenarios: ContractScenario[] = [
  {
    name: 'plain text',
    async run({ anthropic }) {
      const message = await anthropic.messages.create({
        model: contractModels.chat,
        max_tokens: maxTokens,
        messages: [{ role: 'user', content: 'hello there' }],
      });
      expect(message.type).toBe('message');
      expect(message.role).toBe('assistant');
      expect(message.id).toMatch(/^msg_/);
      expect(message.model).toBe(contractModels.chat);
      expect(textOf(message)).toBe('Echo: hello there');
      expect(message.stop_reason).toBe('end_turn');
    },
  },
  {
    name: 'multi-turn with system',
    async run({ anthropic }) {
      const message = await anthropic.messages.create({
        model: contractModels.chat,
        max_tokens: maxTokens,
        system: [{ type: 'text', text: 'You are terse.', cache_control: { type: 'ephemeral' } }],
        messages: [
          { role: 'user', content: 'first question' },
          { role: 'assistant', content: 'first answer' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'second question' },
              { type: 'text', text: 'and a follow-up' },
            ],
          },
        ],
      });
      expect(textOf(message)).toContain('follow-up');
    },
  },
  {
    name: 'image input',
    async run({ anthropic, images }) {
      const message = await anthropic.messages.create({
        model: contractModels.chat,
        max_tokens: maxTokens,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'describe these images' },
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: redPixelPng } },
              { type: 'image', source: { type: 'url', url: `${images.url}/red-pixel.png` } },
            ],
          },
        ],
      });
      expect(textOf(message)).toContain('describe these images');
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
    name: 'streamed text through messages.stream().finalMessage()',
    async run({ anthropic }) {
      const stream = anthropic.messages.stream({
        model: contractModels.chat,
        max_tokens: maxTokens,
        messages: [{ role: 'user', content: longUserText }],
      });
      const textDeltas: string[] = [];
      stream.on('text', (delta) => textDeltas.push(delta));
      const final = await stream.finalMessage();
      expect(textOf(final)).toBe(`Echo: ${longUserText}`);
      expect(textDeltas.length).toBeGreaterThan(2);
      expect(final.stop_reason).toBe('end_turn');
      expect(final.usage.output_tokens).toBeGreaterThan(0);
    },
  },
  {
    name: 'the stream has named events in order, pings and cumulative usage',
    async run(context) {
      const answer = await postMessages(context, {
        model: contractModels.chat,
        max_tokens: maxTokens,
        messages: [{ role: 'user', content: longUserText }],
        stream: true,
      });
      expect(answer.status).toBe(200);
      const events = readSseEvents(answer.text);
      expect(events.every((event) => event.event !== undefined)).toBe(true);
      const names = events.map((event) => event.event).filter((name) => name !== 'ping');
      expect(names[0]).toBe('message_start');
      expect(names.at(-1)).toBe('message_stop');
      expect(names.at(-2)).toBe('message_delta');
      expect(events.some((event) => event.event === 'ping')).toBe(true);
      const delta = JSON.parse(events.find((event) => event.event === 'message_delta')?.data ?? '{}') as {
        usage: { output_tokens: number };
      };
      expect(delta.usage.output_tokens).toBeGreaterThan(0);
      expect(answer.text).not.toContain('[DONE]');
    },
  },
  {
    name: 'streamed tool input split across input_json_delta events',
    async run({ anthropic }) {
      const stream = anthropic.messages.stream({
        model: contractModels.chat,
        max_tokens: maxTokens,
        messages: [{ role: 'user', content: 'weather in Paris' }],
        tools: [weatherTool],
      });
      const pieces: string[] = [];
      stream.on('inputJson', (partial) => pieces.push(partial));
      const final = await stream.finalMessage();
      expect(pieces.length).toBeGreaterThan(1);
      expect(JSON.parse(pieces.join(''))).toEqual({ query: 'weather in Paris' });
      const call = final.content.find((block) => block.type === 'tool_use');
      expect(call).toMatchObject({ type: 'tool_use', name: 'get_weather', input: { query: 'weather in Paris' } });
      expect(final.stop_reason).toBe('tool_use');
    },
  },
  {
    name: 'stop sequence',
    async run({ anthropic }) {
      const message = await anthropic.messages.create({
        model: contractModels.chat,
        max_tokens: maxTokens,
        messages: [{ role: 'user', content: 'alpha beta HALT gamma' }],
        stop_sequences: ['HALT'],
      });
      expect(textOf(message).trim()).toBe('Echo: alpha beta');
      expect(['stop_sequence', 'end_turn']).toContain(message.stop_reason);
    },
  },
  {
    name: 'max_tokens cut-off gives stop_reason max_tokens',
    async run({ anthropic }) {
      const message = await anthropic.messages.create({
        model: contractModels.chat,
        max_tokens: 3,
        messages: [{ role: 'user', content: 'one two three four five' }],
      });
      expect(textOf(message)).toBe('Echo: one two');
      expect(message.stop_reason).toBe('max_tokens');
    },
  },
  {
    name: 'usage is reported with uncached input apart',
    async run({ anthropic }) {
      const message = await anthropic.messages.create({
        model: contractModels.chat,
        max_tokens: maxTokens,
        messages: [{ role: 'user', content: 'how many tokens is this' }],
      });
      expect(message.usage.input_tokens).toBeGreaterThan(0);
      expect(message.usage.output_tokens).toBeGreaterThan(0);
      expect(message.usage.cache_read_input_tokens ?? 0).toBe(0);
    },
  },
  {
    name: 'usage records prompt-cache reads',
    async run({ anthropic }) {
      const request = {
        model: contractModels.cache,
        max_tokens: maxTokens,
        system: 'a long shared system prompt worth caching',
        messages: [{ role: 'user' as const, content: 'cached question' }],
      };
      const message = await anthropic.messages.create(request);
      const cached = message.usage.cache_read_input_tokens ?? 0;
      expect(cached).toBeGreaterThan(0);
      const streamed = await anthropic.messages.stream(request).finalMessage();
      expect(streamed.usage.cache_read_input_tokens).toBe(cached);
      expect(streamed.usage.input_tokens).toBe(message.usage.input_tokens);
    },
  },
  {
    name: 'count_tokens and models.list in Anthropic shape',
    async run({ anthropic }) {
      const counted = await anthropic.messages.countTokens({
        model: contractModels.chat,
        messages: [{ role: 'user', content: 'count these words for me' }],
      });
      expect(counted.input_tokens).toBeGreaterThan(0);
      const models = [];
      for await (const model of anthropic.models.list()) models.push(model);
      expect(models.map((model) => model.id)).toContain(contractModels.chat);
      expect(models[0]).toMatchObject({
        type: 'model',
        display_name: expect.any(String),
        created_at: expect.any(String),
      });
    },
  },
  {
    name: 'upstream 400 becomes 400 invalid_request_error',
    async run(context) {
      const answer = await postMessages(context, {
        model: contractModels.error400,
        max_tokens: maxTokens,
        messages: [{ role: 'user', content: 'hi' }],
      });
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.text)).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
      expect(answer.text).not.toContain(context.upstream.secret);
      expect(answer.text).not.toContain(context.upstream.url);
    },
  },
  {
    name: 'upstream 401 becomes a server-side error (the channel credentials, not the client key)',
    async run({ anthropic }) {
      const error = await anthropic.messages
        .create({ model: contractModels.error401, max_tokens: maxTokens, messages: [{ role: 'user', content: 'hi' }] })
        .then(
          () => undefined,
          (caught: unknown) => caught,
        );
      expect(error).toBeInstanceOf(Anthropic.InternalServerError);
    },
  },
  {
    name: 'upstream 429 becomes 429 rate_limit_error',
    run: ({ anthropic }) =>
      expectAnthropicError(
        anthropic.messages.create({
          model: contractModels.error429,
          max_tokens: maxTokens,
          messages: [{ role: 'user', content: 'hi' }],
        }),
        429,
        'rate_limit_error',
      ),
  },
  {
    name: 'upstream 500 becomes 500 api_error',
    run: ({ anthropic }) =>
      expectAnthropicError(
        anthropic.messages.create({
          model: contractModels.error500,
          max_tokens: maxTokens,
          messages: [{ role: 'user', content: 'hi' }],
        }),
        500,
        'api_error',
      ),
  },
  {
    name: 'upstream overloaded becomes 529 overloaded_error',
    run: ({ anthropic }) =>
      expectAnthropicError(
        anthropic.messages.create({
          model: contractModels.overloaded,
          max_tokens: maxTokens,
          messages: [{ role: 'user', content: 'hi' }],
        }),
        529,
        'overloaded_error',
      ),
  },
  {
    name: 'an error before the first byte fails over to another channel',
    async run({ anthropic, upstream }) {
      const before = upstream.requests.length;
      const final = await anthropic.messages
        .stream({
          model: contractModels.failover,
          max_tokens: maxTokens,
          messages: [{ role: 'user', content: 'fail over please' }],
        })
        .finalMessage();
      expect(textOf(final)).toBe('Echo: fail over please');
      expect(upstream.requests.length - before).toBe(2);
    },
  },
  {
    name: 'a stream that breaks before its first event fails over to another channel',
    async run({ anthropic, upstream }) {
      const before = upstream.requests.length;
      const final = await anthropic.messages
        .stream({
          model: contractModels.failoverEarly,
          max_tokens: maxTokens,
          messages: [{ role: 'user', content: 'fail over early' }],
        })
        .finalMessage();
      expect(textOf(final)).toBe('Echo: fail over early');
      expect(upstream.requests.length - before).toBe(2);
    },
  },
  {
    name: 'an error after the first byte becomes an error event',
    async run(context) {
      const answer = await postMessages(context, {
        model: contractModels.brokenStream,
        max_tokens: maxTokens,
        messages: [{ role: 'user', content: longUserText }],
        stream: true,
      });
      expect(answer.status).toBe(200);
      const events = readSseEvents(answer.text);
      expect(events[0]?.event).toBe('message_start');
      expect(events.at(-1)?.event).toBe('error');
      expect(JSON.parse(events.at(-1)?.data ?? '{}')).toMatchObject({
        type: 'error',
        error: { type: expect.stringMatching(/^(api_error|overloaded_error)$/) },
      });
      expect(answer.text).not.toContain(context.upstream.secret);
      const failed = context.anthropic.messages
        .stream({
          model: contractModels.streamErrorEvent,
          max_tokens: maxTokens,
          messages: [{ role: 'user', content: longUserText }],
        })
        .finalMessage();
      await expect(failed).rejects.toBeInstanceOf(Anthropic.APIError);
    },
  },
  {
    name: 'a client abort of a stream reaches the upstream',
    async run({ anthropic, upstream }) {
      const abortedBefore = upstream.abortedRequestCount();
      const requestsBefore = upstream.requests.length;
      const controller = new AbortController();
      const stream = anthropic.messages.stream(
        { model: contractModels.hang, max_tokens: maxTokens, messages: [{ role: 'user', content: 'never answered' }] },
        { signal: controller.signal },
      );
      const settled = stream.finalMessage().then(
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
