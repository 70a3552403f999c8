// The OpenAI simulator's Responses API, driven by the official `openai` SDK: if the SDK (and its stream helper) accepts
// the simulator, the gateway's Responses tests stand on an upstream that behaves like OpenAI's.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAiSimulator, type OpenAiSimulator } from './openai-simulator.js';

const apiKey = 'sk-simulator-responses';
let simulator: OpenAiSimulator;
let client: OpenAI;

beforeAll(async () => {
  simulator = await startOpenAiSimulator({ apiKey });
  client = new OpenAI({ apiKey, baseURL: simulator.url, maxRetries: 0 });
});
afterAll(async () => {
  await simulator.close();
});

const weatherTool = {
  type: 'function',
  name: 'get_weather',
  parameters: { type: 'object', properties: { query: { type: 'string' } } },
  strict: false,
} as const;
const timeTool = {
  type: 'function',
  name: 'get_time',
  parameters: { type: 'object', properties: {} },
  strict: false,
} as const;

/** The fields of a stream event the assertions read. */
interface StreamEventData {
  type: string;
  sequence_number: number;
  output_index?: number;
  item?: { type: string };
  response?: unknown;
  obfuscation?: unknown;
}

/** The raw events of a streamed create: `event:` names and parsed `data:` payloads. */
async function rawEvents(
  body: Record<string, unknown>,
): Promise<{ text: string; events: Array<{ event: string; data: StreamEventData }> }> {
  const response = await fetch(`${simulator.url}/responses`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
    body: JSON.stringify({ ...body, stream: true }),
  });
  const text = await response.text();
  const events = text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const [eventLine = '', dataLine = ''] = block.split('\n');
      return {
        event: eventLine.slice('event: '.length),
        data: JSON.parse(dataLine.slice('data: '.length)) as StreamEventData,
      };
    });
  return { text, events };
}

/** The error a promise rejects with (fails the test if it resolves). */
async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => expect.fail('expected the call to fail'),
    (error: unknown) => error as Error,
  );
}

describe('Responses API: create', () => {
  it('answers a string input with the echo, word-counted usage, and stores it by default', async () => {
    const response = await client.responses.create({
      model: 'gpt-5',
      input: 'hello there',
      metadata: { ticket: '42' },
    });
    expect(response).toMatchObject({
      object: 'response',
      status: 'completed',
      model: 'gpt-5',
      error: null,
      incomplete_details: null,
      metadata: { ticket: '42' },
      store: true,
    });
    expect(response.id).toMatch(/^resp_/);
    expect(response.output_text).toBe('Echo: hello there');
    expect(response.output[0]).toMatchObject({
      type: 'message',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', annotations: [], logprobs: [] }],
    });
    expect(response.usage).toEqual({
      input_tokens: 2,
      input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
      output_tokens: 3,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 5,
    });
    expect(simulator.storedResponseIds()).toContain(response.id);
  });

  it('reads items of every role and part kind, with instructions, and counts images and files as one token each', async () => {
    const response = await client.responses.create({
      model: 'gpt-5',
      instructions: 'be brief',
      input: [
        { role: 'system', content: 'system words' },
        { role: 'developer', content: [{ type: 'input_text', text: 'developer words' }] },
        { role: 'user', content: 'first question' },
        {
          type: 'message',
          role: 'assistant',
          id: 'msg_earlier',
          status: 'completed',
          content: [{ type: 'output_text', text: 'first answer', annotations: [] }],
        },
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'describe this' },
            { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'auto' },
            { type: 'input_file', filename: 'a.pdf', file_data: 'data:application/pdf;base64,JVBERi0=' },
          ],
        },
      ],
      temperature: 0.5,
      top_p: 0.9,
      truncation: 'auto',
      parallel_tool_calls: false,
      include: ['message.output_text.logprobs'],
    });
    expect(response.output_text).toBe('Echo: describe this');
    expect(response).toMatchObject({
      instructions: 'be brief',
      temperature: 0.5,
      top_p: 0.9,
      truncation: 'auto',
      parallel_tool_calls: false,
    });
    // be brief (2) + 2 + 2 + 2 + 2 + "describe this" (2) + image and file (2)
    expect(response.usage?.input_tokens).toBe(14);
  });

  it('calls every offered function for a user turn, one with parallel_tool_calls false, the named one with tool_choice', async () => {
    const both = await client.responses.create({
      model: 'gpt-5',
      input: 'weather in Paris',
      tools: [weatherTool, timeTool],
    });
    expect(both.output.map((item) => item.type === 'function_call' && item.name)).toEqual(['get_weather', 'get_time']);
    expect(both.output[0]).toMatchObject({
      type: 'function_call',
      arguments: '{"query":"weather in Paris"}',
      status: 'completed',
    });
    expect((both.output[0] as { id: string }).id).toMatch(/^fc_/);
    const single = await client.responses.create({
      model: 'gpt-5',
      input: 'q',
      tools: [weatherTool, timeTool],
      parallel_tool_calls: false,
    });
    expect(single.output).toHaveLength(1);
    const named = await client.responses.create({
      model: 'gpt-5',
      input: 'q',
      tools: [weatherTool, timeTool],
      tool_choice: { type: 'function', name: 'get_time' },
    });
    expect(named.output).toMatchObject([{ type: 'function_call', name: 'get_time' }]);
    const none = await client.responses.create({
      model: 'gpt-5',
      input: 'q',
      tools: [weatherTool],
      tool_choice: 'none',
    });
    expect(none.output_text).toBe('Echo: q');
  });

  it('echoes custom and client-run tool_search tools as sent and calls only the functions (as Codex needs)', async () => {
    const applyPatch = {
      type: 'custom',
      name: 'apply_patch',
      description: 'Edits files.',
      format: { type: 'grammar', syntax: 'lark', definition: 'start: "x"' },
    } as const;
    const toolSearch = { type: 'tool_search', execution: 'client', description: 'Finds tools.' } as const;
    const response = await client.responses.create({
      model: 'gpt-5',
      input: 'weather in Paris',
      tools: [applyPatch, toolSearch, weatherTool],
    });
    expect(response.tools.slice(0, 2)).toEqual([applyPatch, toolSearch]);
    expect(response.output.map((item) => item.type === 'function_call' && item.name)).toEqual(['get_weather']);
  });

  it('answers function outputs sent as items (the stateless way) with the tool results', async () => {
    const response = await client.responses.create({
      model: 'gpt-5',
      tools: [weatherTool],
      store: false,
      input: [
        { role: 'user', content: 'weather?' },
        { type: 'function_call', call_id: 'call_a', name: 'get_weather', arguments: '{}' },
        { type: 'function_call_output', call_id: 'call_a', output: 'sunny' },
      ],
    });
    expect(response.output_text).toBe('Tool results: sunny');
  });

  it('answers JSON for a json_schema text format', async () => {
    const response = await client.responses.create({
      model: 'gpt-5',
      input: 'make json',
      text: {
        format: {
          type: 'json_schema',
          name: 'echo',
          schema: { type: 'object', properties: { echo: { type: 'string' } } },
          strict: true,
        },
      },
    });
    expect(JSON.parse(response.output_text)).toEqual({ echo: 'make json' });
    expect(response.text?.format).toMatchObject({ type: 'json_schema', name: 'echo' });
  });

  it('cuts the answer at max_output_tokens: status incomplete with the reason', async () => {
    const words = Array.from({ length: 30 }, (_, index) => `w${index}`).join(' ');
    const response = await client.responses.create({ model: 'gpt-5', input: words, max_output_tokens: 16 });
    expect(response).toMatchObject({
      status: 'incomplete',
      incomplete_details: { reason: 'max_output_tokens' },
      max_output_tokens: 16,
    });
    expect(response.output[0]).toMatchObject({ type: 'message', status: 'incomplete' });
    expect(response.output_text.split(' ')).toHaveLength(16);
    expect(response.usage?.output_tokens).toBe(16);
  });

  it('reports reasoning as a summarised item with reasoning tokens, and encrypted content only when included', async () => {
    const response = await client.responses.create({
      model: 'gpt-5',
      input: 'think hard',
      reasoning: { effort: 'high', summary: 'auto' },
      include: ['reasoning.encrypted_content'],
      store: false,
    });
    const [reasoning, message] = response.output;
    expect(reasoning).toMatchObject({
      type: 'reasoning',
      summary: [{ type: 'summary_text', text: 'Thinking about: think hard' }],
    });
    expect(message).toMatchObject({ type: 'message' });
    expect(response.usage?.output_tokens_details.reasoning_tokens).toBe(4);
    expect(response.usage?.output_tokens).toBe(4 + 3);
    const encrypted = (reasoning as { encrypted_content?: string }).encrypted_content;
    expect(encrypted).toEqual(expect.any(String));
    // A stateless client replays the reasoning item with the next turn; the simulator accepts its own encrypted content.
    const next = await client.responses.create({
      model: 'gpt-5',
      store: false,
      input: [{ role: 'user', content: 'think hard' }, reasoning as never, { role: 'user', content: 'and now?' }],
    });
    expect(next.output_text).toBe('Echo: and now?');
  });

  it('reports half the input as cached for sim-cached-prompt', async () => {
    const response = await client.responses.create({ model: 'sim-cached-prompt', input: 'one two three four' });
    expect(response.usage?.input_tokens_details.cached_tokens).toBe(2);
  });
});

describe('Responses API: streaming', () => {
  it('streams a text answer the SDK helper accepts, ending in response.completed with the full output and usage', async () => {
    const stream = client.responses.stream({ model: 'gpt-5', input: 'one two three' });
    const deltas: string[] = [];
    stream.on('response.output_text.delta', (event) => deltas.push(event.delta));
    const final = await stream.finalResponse();
    expect(final.status).toBe('completed');
    expect(final.output_text).toBe('Echo: one two three');
    expect(deltas.join('')).toBe('Echo: one two three');
    expect(final.usage).toMatchObject({ input_tokens: 3, output_tokens: 4, total_tokens: 7 });
  });

  it('frames events as OpenAI does: event name = type, sequence numbers from 0, no [DONE], the documented order', async () => {
    const { text, events } = await rawEvents({ model: 'gpt-5', input: 'a b' });
    expect(text).not.toContain('[DONE]');
    expect(events.every((entry) => entry.event === entry.data.type)).toBe(true);
    expect(events.map((entry) => entry.data.sequence_number)).toEqual(events.map((_, index) => index));
    expect(events.map((entry) => entry.event)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events[0]?.data.response).toMatchObject({ status: 'in_progress', output: [], usage: null });
    expect(events[4]?.data.obfuscation).toEqual(expect.any(String));
  });

  it('leaves out the obfuscation padding when stream_options.include_obfuscation is false', async () => {
    const { events } = await rawEvents({
      model: 'gpt-5',
      input: 'a b',
      stream_options: { include_obfuscation: false },
    });
    expect(events.some((entry) => 'obfuscation' in entry.data)).toBe(false);
  });

  it('streams function calls with argument deltas and the reasoning summary first', async () => {
    const { events } = await rawEvents({
      model: 'gpt-5',
      input: 'weather?',
      tools: [weatherTool, timeTool],
      reasoning: { effort: 'low' },
    });
    const types = events.map((entry) => entry.event);
    expect(types).toContain('response.reasoning_summary_part.added');
    expect(types).toContain('response.reasoning_summary_text.delta');
    expect(types.filter((type) => type === 'response.function_call_arguments.delta').length).toBeGreaterThanOrEqual(6);
    const added = events
      .filter((entry) => entry.event === 'response.output_item.added')
      .map((entry) => [entry.data.output_index, entry.data.item?.type]);
    expect(added).toEqual([
      [0, 'reasoning'],
      [1, 'function_call'],
      [2, 'function_call'],
    ]);
    const argumentsDone = events.find((entry) => entry.event === 'response.function_call_arguments.done');
    expect(argumentsDone?.data).toMatchObject({
      output_index: 1,
      name: 'get_weather',
      arguments: '{"query":"weather?"}',
    });

    const final = await client.responses
      .stream({ model: 'gpt-5', input: 'weather?', tools: [weatherTool, timeTool], reasoning: { effort: 'low' } })
      .finalResponse();
    expect(final.output.map((item) => item.type)).toEqual(['reasoning', 'function_call', 'function_call']);
    expect(final.output[1]).toMatchObject({ arguments: '{"query":"weather?"}', status: 'completed' });
  });

  it('ends a cut-off stream with response.incomplete', async () => {
    const words = Array.from({ length: 20 }, (_, index) => `w${index}`).join(' ');
    const { events } = await rawEvents({ model: 'gpt-5', input: words, max_output_tokens: 16 });
    expect(events.at(-1)?.data).toMatchObject({
      type: 'response.incomplete',
      response: { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } },
    });
    const final = await client.responses
      .stream({ model: 'gpt-5', input: words, max_output_tokens: 16 })
      .finalResponse();
    expect(final.status).toBe('incomplete');
  });
});

describe('Responses API: stored responses', () => {
  it('retrieves, lists the input items of, and deletes a stored response', async () => {
    const created = await client.responses.create({
      model: 'gpt-5',
      input: [
        { role: 'user', content: 'one' },
        { role: 'assistant', content: 'two' },
        { role: 'user', content: 'three' },
      ],
    });
    const retrieved = await client.responses.retrieve(created.id);
    expect(retrieved.output_text).toBe('Echo: three');
    expect(retrieved.usage).toEqual(created.usage);

    const newestFirst = await client.responses.inputItems.list(created.id);
    expect(newestFirst.data.map((item) => (item as { content: Array<{ text: string }> }).content[0]?.text)).toEqual([
      'three',
      'two',
      'one',
    ]);
    expect(newestFirst.data.every((item) => typeof item.id === 'string' && item.id.startsWith('msg_'))).toBe(true);
    const pagedIds: string[] = [];
    for await (const item of client.responses.inputItems.list(created.id, { limit: 1, order: 'asc' }))
      pagedIds.push(item.id as string);
    expect(pagedIds).toEqual([...newestFirst.data.map((item) => item.id)].reverse());

    await client.responses.delete(created.id);
    expect(await rejectionOf(client.responses.retrieve(created.id))).toBeInstanceOf(OpenAI.NotFoundError);
    expect(await rejectionOf(client.responses.delete(created.id))).toBeInstanceOf(OpenAI.NotFoundError);
    expect(await rejectionOf(client.responses.inputItems.list(created.id))).toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('chains previous_response_id: the model sees the earlier turns and calls, instructions are not inherited', async () => {
    const first = await client.responses.create({
      model: 'gpt-5',
      instructions: 'first instructions',
      input: 'weather in Rome',
      tools: [weatherTool],
    });
    const call = first.output[0] as { call_id: string };
    const second = await client.responses.create({
      model: 'gpt-5',
      previous_response_id: first.id,
      tools: [weatherTool],
      input: [{ type: 'function_call_output', call_id: call.call_id, output: 'rainy' }],
    });
    expect(second).toMatchObject({ previous_response_id: first.id, instructions: null });
    expect(second.output_text).toBe('Tool results: rainy');
    const third = await client.responses.create({ model: 'gpt-5', previous_response_id: second.id, input: 'thanks' });
    expect(third.output_text).toBe('Echo: thanks');
    // "weather in Rome" (3) + call `get_weather {"query":"weather in Rome"}` (4) + "rainy" (1) + "Tool results: rainy" (3) + "thanks" (1)
    expect(third.usage?.input_tokens).toBe(12);
  });

  it('keeps nothing with store false: retrieve and previous_response_id answer 404', async () => {
    const response = await client.responses.create({ model: 'gpt-5', input: 'secret', store: false });
    expect(response).toMatchObject({ store: false });
    expect(simulator.storedResponseIds()).not.toContain(response.id);
    expect(await rejectionOf(client.responses.retrieve(response.id))).toBeInstanceOf(OpenAI.NotFoundError);
    const chained = await rejectionOf(
      client.responses.create({ model: 'gpt-5', input: 'more', previous_response_id: response.id }),
    );
    expect(chained).toBeInstanceOf(OpenAI.NotFoundError);
    expect(chained).toMatchObject({ code: 'previous_response_not_found', param: 'previous_response_id' });
  });

  it('stores a streamed response too', async () => {
    const final = await client.responses.stream({ model: 'gpt-5', input: 'streamed' }).finalResponse();
    expect((await client.responses.retrieve(final.id)).output_text).toBe('Echo: streamed');
  });
});

describe('Responses API: validation', () => {
  const create = (body: Record<string, unknown>) =>
    client.responses.create({ model: 'gpt-5', input: 'x', ...body } as never);

  it.each([
    ['an unknown parameter', { frobnicate: true }, 'frobnicate', 'unknown_parameter'],
    [
      'a chat-style response_format',
      { response_format: { type: 'json_object' } },
      'response_format',
      'unsupported_parameter',
    ],
    [
      'a chat-style nested function tool',
      { tools: [{ type: 'function', function: { name: 'f' } }] },
      'tools[0].function',
      'unknown_parameter',
    ],
    [
      'a tool name with spaces',
      { tools: [{ type: 'function', name: 'get weather' }] },
      'tools[0].name',
      'invalid_value',
    ],
    [
      'a chat-style tool_choice',
      { tools: [weatherTool], tool_choice: { type: 'function', function: { name: 'get_weather' } } },
      'tool_choice.function',
      'unknown_parameter',
    ],
    ['max_output_tokens below 16', { max_output_tokens: 5 }, 'max_output_tokens', 'integer_below_min_value'],
    ['a string temperature', { temperature: 'hot' }, 'temperature', 'invalid_type'],
    ['an unknown reasoning effort', { reasoning: { effort: 'extreme' } }, 'reasoning.effort', 'invalid_value'],
    ['a non-string metadata value', { metadata: { count: 3 } }, 'metadata.count', 'invalid_type'],
    ['an unknown include value', { include: ['everything'] }, 'include[0]', 'invalid_value'],
    [
      'a json_schema format without a name',
      { text: { format: { type: 'json_schema', schema: {} } } },
      'text.format.name',
      'missing_required_parameter',
    ],
    ['an unknown item type', { input: [{ type: 'telepathy' }] }, 'input[0].type', 'invalid_value'],
    [
      'input_text in an assistant message',
      { input: [{ role: 'assistant', content: [{ type: 'input_text', text: 'hi' }] }] },
      'input[0].content[0].type',
      'invalid_value',
    ],
    [
      'an over-long call_id',
      { input: [{ type: 'function_call_output', call_id: 'c'.repeat(65), output: 'x' }] },
      'input[0].call_id',
      'string_above_max_length',
    ],
    [
      'foreign encrypted reasoning',
      { input: [{ type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'sealed-by-someone-else' }] },
      'input[0].encrypted_content',
      'invalid_encrypted_content',
    ],
  ])('refuses %s with a 400 naming the param', async (_name, body, param, code) => {
    const error = await rejectionOf(create(body));
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ status: 400, param, code, type: 'invalid_request_error' });
  });

  it('refuses a function output without its call, and a call without its output', async () => {
    const orphanOutput = await rejectionOf(
      create({ input: [{ type: 'function_call_output', call_id: 'call_x', output: 'r' }] }),
    );
    expect(orphanOutput.message).toContain('No tool call found for function call output with call_id call_x');
    const unanswered = await rejectionOf(
      create({
        input: [
          { role: 'user', content: 'q' },
          { type: 'function_call', call_id: 'call_y', name: 'f', arguments: '{}' },
          { role: 'user', content: 'again' },
        ],
      }),
    );
    expect(unanswered.message).toContain('No tool output found for function call call_y');
  });
});

describe('Responses API: vendor failures', () => {
  it.each([
    ['sim-error-400', OpenAI.BadRequestError],
    ['sim-error-429', OpenAI.RateLimitError],
    ['sim-error-500', OpenAI.InternalServerError],
    ['sim-error-503', OpenAI.InternalServerError],
  ])('answers %s as the SDK typed error', async (model, errorClass) => {
    expect(await rejectionOf(client.responses.create({ model, input: 'x' }))).toBeInstanceOf(errorClass);
  });

  it('answers a wrong key with 401', async () => {
    const stranger = new OpenAI({ apiKey: 'sk-wrong', baseURL: simulator.url, maxRetries: 0 });
    expect(await rejectionOf(stranger.responses.create({ model: 'gpt-5', input: 'x' }))).toBeInstanceOf(
      OpenAI.AuthenticationError,
    );
  });

  it('fails mid-stream with an error event and response.failed, which the SDK helper surfaces as an error', async () => {
    const { events } = await rawEvents({ model: 'sim-stream-error-event', input: 'one two three four five' });
    expect(events.filter((entry) => entry.event === 'response.output_text.delta')).toHaveLength(2);
    expect(events.slice(-2).map((entry) => entry.data)).toMatchObject([
      { type: 'error', code: 'server_error', param: null },
      { type: 'response.failed', response: { status: 'failed', error: { code: 'server_error' } } },
    ]);
    expect(events.map((entry) => entry.data.sequence_number)).toEqual(events.map((_, index) => index));
    const failure = await rejectionOf(
      client.responses.stream({ model: 'sim-stream-error-event', input: 'one two three four five' }).finalResponse(),
    );
    // openai-node rejects with the `error` event itself (its stream helper emits it on its error channel).
    expect(failure).toMatchObject({
      type: 'error',
      code: 'server_error',
      message: 'The server had an error while processing your request.',
    });
  });

  it('breaks the connection before the first event or after two deltas, and the SDK helper rejects', async () => {
    expect(
      await rejectionOf(
        client.responses.stream({ model: 'sim-broken-before-first-event', input: 'x' }).finalResponse(),
      ),
    ).toBeInstanceOf(Error);
    const deltas: string[] = [];
    const broken = client.responses.stream({ model: 'sim-broken-stream', input: 'one two three four five' });
    broken.on('response.output_text.delta', (event) => deltas.push(event.delta));
    expect(await rejectionOf(broken.finalResponse())).toBeInstanceOf(Error);
    expect(deltas).toEqual(['Echo: ', 'one ']);
  });
});
