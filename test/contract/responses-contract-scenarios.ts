// The named scenarios every adapter must pass through the gateway's /v1/responses, driven by the official openai SDK.
import OpenAI from 'openai';
import { expect, vi } from 'vitest';
import { codexContractScenarios } from './codex-contract-scenarios.js';
import {
  contractModels,
  postToGateway,
  readSseEvents,
  type ContractContext,
  type ContractScenario,
} from './contract-context.js';

type ResponseStreamEvent = OpenAI.Responses.ResponseStreamEvent;

const weatherTool: OpenAI.Responses.FunctionTool = {
  type: 'function',
  name: 'get_weather',
  description: 'Weather for a city',
  parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
  strict: false,
};
const timeTool: OpenAI.Responses.FunctionTool = {
  type: 'function',
  name: 'get_time',
  description: 'Local time in a city',
  parameters: { type: 'object', properties: { query: { type: 'string' } } },
  strict: false,
};
const redPixelPng = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const longUserText = 'please stream these several words back to me in order';

async function expectApiError(promise: Promise<unknown>, status: number, code: string): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(OpenAI.APIError);
  expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(status);
  expect((error as InstanceType<typeof OpenAI.APIError>).code).toBe(code);
}

function functionCallsOf(response: OpenAI.Responses.Response): OpenAI.Responses.ResponseFunctionToolCall[] {
  return response.output.filter(
    (item): item is OpenAI.Responses.ResponseFunctionToolCall => item.type === 'function_call',
  );
}

/** The gateway's own response ids: `resp_` and never the vendor's. */
function expectGatewayResponse(context: ContractContext, response: OpenAI.Responses.Response): void {
  expect(response.object).toBe('response');
  expect(response.id).toMatch(/^resp_/);
  expect(JSON.stringify(context.upstream.requests.at(-1) ?? {})).not.toContain(response.id);
}

async function toolRoundTrip(context: ContractContext, tools: OpenAI.Responses.FunctionTool[]): Promise<void> {
  const { client } = context;
  const input: OpenAI.Responses.ResponseInputItem[] = [{ role: 'user', content: 'weather and time in Paris' }];
  // A stateless client (Codex) asks for encrypted reasoning on every request, so the first answer carries the artefacts.
  const first = await client.responses.create({
    model: contractModels.chat,
    input,
    tools,
    include: ['reasoning.encrypted_content'],
    store: false,
  });
  const calls = functionCallsOf(first);
  expect(calls.map((call) => call.name)).toEqual(tools.map((tool) => tool.name));
  for (const call of calls) {
    expect(call.call_id).not.toBe('');
    expect(JSON.parse(call.arguments)).toEqual({ query: 'weather and time in Paris' });
  }
  // Stateless: the client sends the whole conversation back, reasoning items (with their sealed artefacts) included.
  const second = await client.responses.create({
    model: contractModels.chat,
    input: [
      ...input,
      ...(first.output as OpenAI.Responses.ResponseInputItem[]),
      ...calls.map((call, index) => ({
        type: 'function_call_output' as const,
        call_id: call.call_id,
        output: index === 0 ? 'sunny' : '12:00',
      })),
    ],
    tools,
    include: ['reasoning.encrypted_content'],
    store: false,
  });
  expect(second.status).toBe('completed');
  expect(second.output_text).toContain('sunny');
  if (calls.length > 1) expect(second.output_text).toContain('12:00');
}

/** Every Responses scenario, in the order they run. */
export const responsesContractScenarios: ContractScenario[] = [
  {
    name: 'plain text',
    async run(context) {
      const response = await context.client.responses.create({
        model: contractModels.chat,
        input: 'hello there',
        store: false,
      });
      expectGatewayResponse(context, response);
      expect(response.status).toBe('completed');
      expect(response.model).toBe(contractModels.chat);
      expect(response.output_text).toBe('Echo: hello there');
      const message = response.output.find((item) => item.type === 'message');
      expect(message).toMatchObject({ role: 'assistant', status: 'completed' });
    },
  },
  {
    name: 'multi-turn with instructions',
    async run({ client }) {
      const response = await client.responses.create({
        model: contractModels.chat,
        instructions: 'You are terse.',
        input: [
          { role: 'user', content: 'first question' },
          { role: 'assistant', content: 'first answer' },
          { role: 'user', content: 'second question' },
          { role: 'user', content: 'and a follow-up' },
        ],
        store: false,
      });
      expect(response.output_text).toContain('follow-up');
      expect(response.instructions).toBe('You are terse.');
    },
  },
  {
    name: 'image input',
    async run({ client, images }) {
      const response = await client.responses.create({
        model: contractModels.chat,
        input: [
          {
            role: 'user',
            content: [
              { type: 'input_text', text: 'describe these images' },
              { type: 'input_image', image_url: `data:image/png;base64,${redPixelPng}`, detail: 'auto' },
              { type: 'input_image', image_url: `${images.url}/red-pixel.png`, detail: 'auto' },
            ],
          },
        ],
        store: false,
      });
      expect(response.output_text).toContain('describe these images');
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
    name: 'streamed text through responses.stream().finalResponse()',
    async run(context) {
      const stream = context.client.responses.stream({ model: contractModels.chat, input: longUserText, store: false });
      const events: ResponseStreamEvent[] = [];
      stream.on('event', (event) => events.push(event));
      const final = await stream.finalResponse();
      expectGatewayResponse(context, final);
      expect(final.output_text).toBe(`Echo: ${longUserText}`);
      expect(events[0]?.type).toBe('response.created');
      expect(events.at(-1)?.type).toBe('response.completed');
      expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index));
      const deltas = events.filter((event) => event.type === 'response.output_text.delta');
      expect(deltas.length).toBeGreaterThan(2);
      expect(deltas.map((event) => event.delta).join('')).toBe(`Echo: ${longUserText}`);
      expect(new Set(events.flatMap((event) => ('response' in event ? [event.response.id] : []))).size).toBe(1);
    },
  },
  {
    name: 'a streamed answer ends with the terminal event and no [DONE]',
    async run(context) {
      const answer = await postToGateway(context, '/v1/responses', {
        model: contractModels.chat,
        input: 'count me',
        stream: true,
        store: false,
      });
      expect(answer.status).toBe(200);
      const events = readSseEvents(answer.text);
      expect(events.map((event) => event.data)).not.toContain('[DONE]');
      const terminal = JSON.parse(events.at(-1)?.data ?? '{}') as { type: string; response: OpenAI.Responses.Response };
      expect(events.at(-1)?.event).toBe('response.completed');
      expect(terminal.response.usage?.output_tokens).toBeGreaterThan(0);
      expect(terminal.response.output.length).toBeGreaterThan(0);
    },
  },
  {
    name: 'streamed tool-call arguments split across events',
    async run({ client }) {
      const stream = client.responses.stream({
        model: contractModels.chat,
        input: 'weather in Paris',
        tools: [weatherTool],
        store: false,
      });
      const argumentDeltas: string[] = [];
      stream.on('response.function_call_arguments.delta', (event) => argumentDeltas.push(event.delta));
      const final = await stream.finalResponse();
      expect(argumentDeltas.length).toBeGreaterThan(1);
      const [call] = functionCallsOf(final);
      expect(call?.name).toBe('get_weather');
      expect(JSON.parse(argumentDeltas.join(''))).toEqual({ query: 'weather in Paris' });
      expect(JSON.parse(call?.arguments ?? '')).toEqual({ query: 'weather in Paris' });
    },
  },
  {
    name: 'max_output_tokens cut-off gives status incomplete',
    async run({ client }) {
      const words = Array.from({ length: 40 }, (_, index) => `word${index}`).join(' ');
      const response = await client.responses.create({
        model: contractModels.chat,
        input: words,
        max_output_tokens: 16,
        store: false,
      });
      expect(response.status).toBe('incomplete');
      expect(response.incomplete_details?.reason).toBe('max_output_tokens');
      expect(response.output_text.length).toBeGreaterThan(0);
      expect(`Echo: ${words}`.startsWith(response.output_text.trim())).toBe(true);
    },
  },
  {
    name: 'usage totals add up',
    async run({ client }) {
      const response = await client.responses.create({
        model: contractModels.chat,
        input: 'how many tokens is this',
        store: false,
      });
      const usage = response.usage;
      expect(usage?.input_tokens).toBeGreaterThan(0);
      expect(usage?.output_tokens).toBeGreaterThan(0);
      expect((usage?.input_tokens ?? 0) + (usage?.output_tokens ?? 0)).toBe(usage?.total_tokens);
    },
  },
  {
    name: 'usage records prompt-cache reads',
    async run({ client }) {
      const request = {
        model: contractModels.cache,
        instructions: 'a long shared system prompt worth caching',
        input: 'cached question',
        store: false,
      } as const;
      const response = await client.responses.create(request);
      const cached = response.usage?.input_tokens_details.cached_tokens ?? 0;
      expect(cached).toBeGreaterThan(0);
      expect(cached).toBeLessThan(response.usage?.input_tokens ?? 0);
      const streamed = await client.responses.stream(request).finalResponse();
      expect(streamed.usage?.input_tokens_details.cached_tokens).toBe(cached);
      expect(streamed.usage?.input_tokens).toBe(response.usage?.input_tokens);
    },
  },
  {
    name: 'stored: retrieve, input items, a previous_response_id chain, delete',
    async run(context) {
      const { client } = context;
      const first = await client.responses.create({ model: contractModels.chat, input: 'first turn words' });
      const retrieved = await client.responses.retrieve(first.id);
      expect(retrieved.id).toBe(first.id);
      expect(retrieved.output_text).toBe(first.output_text);
      const items = await client.responses.inputItems.list(first.id);
      expect(items.data).toHaveLength(1);
      expect(items.data[0]).toMatchObject({ type: 'message', role: 'user' });
      const second = await client.responses.create({
        model: contractModels.chat,
        input: 'second turn words',
        previous_response_id: first.id,
      });
      expect(second.previous_response_id).toBe(first.id);
      expect(second.output_text).toBe('Echo: second turn words');
      // The vendor saw the whole conversation, whichever way the gateway gave it (its own id, or the items).
      const seen = JSON.stringify(context.upstream.requests.at(-1) ?? {});
      expect(seen.includes('first turn words') || seen.includes('"previous_response_id"')).toBe(true);
      expect(seen).not.toContain(first.id);
      await client.responses.delete(second.id);
      await expectApiError(client.responses.retrieve(second.id), 404, 'not_found');
    },
  },
  {
    name: 'store false keeps nothing',
    async run({ client }) {
      const response = await client.responses.create({ model: contractModels.chat, input: 'forget me', store: false });
      await expectApiError(client.responses.retrieve(response.id), 404, 'not_found');
      await expectApiError(
        client.responses.create({ model: contractModels.chat, input: 'next', previous_response_id: response.id }),
        404,
        'not_found',
      );
    },
  },
  {
    name: 'upstream 400 becomes 400 invalid_request_error',
    async run(context) {
      const answer = await postToGateway(context, '/v1/responses', {
        model: contractModels.error400,
        input: 'hi',
        store: false,
      });
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.text)).toMatchObject({ error: { type: 'invalid_request_error' } });
      expect(answer.text).not.toContain(context.upstream.secret);
      expect(answer.text).not.toContain(context.upstream.url);
    },
  },
  {
    name: 'upstream 401 becomes 503 (the channel credentials, not the client key)',
    run: ({ client }) =>
      expectApiError(
        client.responses.create({ model: contractModels.error401, input: 'hi', store: false }),
        503,
        'service_unavailable',
      ),
  },
  {
    name: 'upstream 429 becomes 429 rate_limit_exceeded',
    run: ({ client }) =>
      expectApiError(
        client.responses.create({ model: contractModels.error429, input: 'hi', store: false }),
        429,
        'rate_limit_exceeded',
      ),
  },
  {
    name: 'upstream 500 becomes 500 server_error',
    run: ({ client }) =>
      expectApiError(
        client.responses.create({ model: contractModels.error500, input: 'hi', store: false }),
        500,
        'server_error',
      ),
  },
  {
    name: 'upstream overloaded becomes 503 service_unavailable',
    run: ({ client }) =>
      expectApiError(
        client.responses.create({ model: contractModels.overloaded, input: 'hi', store: false }),
        503,
        'service_unavailable',
      ),
  },
  {
    name: 'an error before the first byte fails over to another channel',
    async run({ client, upstream }) {
      const before = upstream.requests.length;
      const final = await client.responses
        .stream({ model: contractModels.failover, input: 'fail over please', store: false })
        .finalResponse();
      expect(final.output_text).toBe('Echo: fail over please');
      expect(upstream.requests.length - before).toBe(2);
    },
  },
  {
    name: 'a stream that breaks before its first event fails over to another channel',
    async run({ client, upstream }) {
      const before = upstream.requests.length;
      const final = await client.responses
        .stream({ model: contractModels.failoverEarly, input: 'fail over early', store: false })
        .finalResponse();
      expect(final.output_text).toBe('Echo: fail over early');
      expect(upstream.requests.length - before).toBe(2);
    },
  },
  {
    name: 'an error after the first byte ends the stream with response.failed',
    async run(context) {
      const answer = await postToGateway(context, '/v1/responses', {
        model: contractModels.brokenStream,
        input: longUserText,
        stream: true,
        store: false,
      });
      expect(answer.status).toBe(200);
      const events = readSseEvents(answer.text);
      expect(events.length).toBeGreaterThan(2);
      expect(events.at(-1)?.event).toBe('response.failed');
      expect(answer.text).not.toContain(context.upstream.secret);
      // The vendor's own error event mid-stream: the SDK's stream rejects on the `error` event, as with OpenAI itself.
      const failed = context.client.responses
        .stream({ model: contractModels.streamErrorEvent, input: longUserText, store: false })
        .finalResponse();
      await expect(failed).rejects.toThrow();
      const raw = readSseEvents(
        (
          await postToGateway(context, '/v1/responses', {
            model: contractModels.streamErrorEvent,
            input: longUserText,
            stream: true,
            store: false,
          })
        ).text,
      );
      expect(raw.map((event) => event.event).slice(-1)).toEqual(['response.failed']);
      expect(raw.some((event) => event.event === 'error')).toBe(true);
    },
  },
  {
    name: 'a client abort of a stream reaches the upstream',
    async run({ client, upstream }) {
      const abortedBefore = upstream.abortedRequestCount();
      const requestsBefore = upstream.requests.length;
      const controller = new AbortController();
      const pending = client.responses.create(
        { model: contractModels.hang, input: 'never answered', stream: true, store: false },
        { signal: controller.signal },
      );
      const settled = pending.then(
        async (stream) => {
          for await (const event of stream) void event;
          return 'answered';
        },
        () => 'aborted',
      );
      await vi.waitFor(() => expect(upstream.requests.length).toBeGreaterThan(requestsBefore), {
        timeout: 10_000,
        interval: 10,
      });
      controller.abort();
      expect(await settled.catch(() => 'aborted')).toBe('aborted');
      await vi.waitFor(() => expect(upstream.abortedRequestCount()).toBeGreaterThan(abortedBefore), {
        timeout: 10_000,
        interval: 10,
      });
    },
  },
  ...codexContractScenarios,
];
