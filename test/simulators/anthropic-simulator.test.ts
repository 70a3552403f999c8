// The Anthropic simulator must refuse what Anthropic refuses, or a translation bug in the gateway would pass unseen.
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnthropicSimulator, type AnthropicSimulator } from './anthropic-simulator.js';

const apiKey = 'sk-ant-simulator-test';
let simulator: AnthropicSimulator;

beforeAll(async () => {
  simulator = await startAnthropicSimulator({ apiKey });
});

afterAll(async () => {
  await simulator.close();
});

async function postMessages(
  body: Record<string, unknown>,
  version = '2023-06-01',
  headers: Record<string, string> = {},
) {
  const auth = version === '2026-10-21' ? { authorization: `Bearer ${apiKey}` } : { 'x-api-key': apiKey };
  const response = await request(`${simulator.url}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'anthropic-version': version, ...auth, ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.body.text();
  return { status: response.statusCode, text, json: () => JSON.parse(text) as Record<string, unknown> };
}

const valid = { model: 'claude-sim', max_tokens: 100, messages: [{ role: 'user', content: 'hello there' }] };

describe('Anthropic simulator validation', () => {
  it.each([
    [
      'non-alternating roles',
      {
        ...valid,
        messages: [
          { role: 'user', content: 'a' },
          { role: 'user', content: 'b' },
        ],
      },
      'roles must alternate',
    ],
    [
      'a first assistant message',
      { ...valid, messages: [{ role: 'assistant', content: 'a' }] },
      'first message must use the "user" role',
    ],
    ['a missing max_tokens', { model: 'claude-sim', messages: valid.messages }, 'max_tokens'],
    ['an unknown top-level field', { ...valid, n: 2 }, 'n: Extra inputs are not permitted'],
    [
      'a system message in messages',
      { ...valid, messages: [{ role: 'system', content: 'x' }] },
      "role: Input should be 'user' or 'assistant'",
    ],
    [
      'a tool_result without a tool_use before it',
      {
        ...valid,
        messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_x', content: 'r' }] }],
      },
      'unexpected `tool_use_id`',
    ],
    [
      'a tool_use left unanswered',
      {
        ...valid,
        messages: [
          { role: 'user', content: 'q' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'f', input: {} }] },
          { role: 'user', content: 'no result' },
        ],
      },
      'without `tool_result` blocks',
    ],
    [
      'an empty text block',
      { ...valid, messages: [{ role: 'user', content: [{ type: 'text', text: '' }] }] },
      'must be non-empty',
    ],
    ['temperature above 1', { ...valid, temperature: 1.5 }, 'temperature'],
  ])('refuses %s with a 400 invalid_request_error', async (_name, body, message) => {
    const answer = await postMessages(body);
    expect(answer.status).toBe(400);
    expect(answer.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect((answer.json() as { error: { message: string } }).error.message).toContain(message);
  });

  it('refuses temperature on 2026-10-21 and takes output_config on both versions, answering JSON by its schema', async () => {
    expect((await postMessages({ ...valid, temperature: 0.5 }, '2026-10-21')).text).toContain(
      'temperature: Extra inputs are not permitted',
    );
    const closed = { type: 'object', properties: { echo: { type: 'string' } }, additionalProperties: false };
    for (const version of ['2023-06-01', '2026-10-21']) {
      const answer = await postMessages(
        { ...valid, output_config: { format: { type: 'json_schema', schema: closed }, effort: 'high' } },
        version,
      );
      expect(answer.status).toBe(200);
      const content = (answer.json() as { content: Array<{ text: string }> }).content;
      expect(JSON.parse(content[0]?.text ?? '')).toEqual({ echo: 'hello there' });
    }
  });

  it.each([
    ['an open object schema', { format: { type: 'json_schema', schema: { type: 'object' } } }, 'additionalProperties'],
    ['a format other than json_schema', { format: { type: 'json_object' } }, 'output_config.format.type'],
    ['an unknown effort', { effort: 'extreme' }, 'output_config.effort'],
  ])('refuses output_config with %s', async (_name, outputConfig, message) => {
    const answer = await postMessages({ ...valid, output_config: outputConfig });
    expect(answer.status).toBe(400);
    expect(answer.text).toContain(message);
  });

  it('expects the key where the API version puts it', async () => {
    expect((await postMessages(valid, '2023-06-01', { 'x-api-key': 'wrong' })).status).toBe(401);
    expect((await postMessages(valid, '2026-10-21', { authorization: '', 'x-api-key': apiKey })).status).toBe(401);
    expect((await postMessages(valid, '2023-06-01', { 'anthropic-version': '' })).status).toBe(400);
  });
});

describe('Anthropic simulator answers', () => {
  it('echoes the last user text with usage, and reports cache reads for a `cache` model', async () => {
    const plain = (await postMessages(valid)).json();
    expect(plain).toMatchObject({
      type: 'message',
      role: 'assistant',
      content: [{ type: 'text', text: 'Echo: hello there' }],
      stop_reason: 'end_turn',
    });
    const cached = (await postMessages({ ...valid, model: 'claude-cache-sim' })).json() as {
      usage: Record<string, number>;
    };
    expect(cached.usage.cache_read_input_tokens).toBeGreaterThan(0);
  });

  it('streams the documented event sequence', async () => {
    const answer = await postMessages({ ...valid, stream: true });
    const types = [...answer.text.matchAll(/^event: (\w+)$/gm)].map((match) => match[1]);
    expect(types[0]).toBe('message_start');
    expect(types).toContain('ping');
    expect(types.slice(-3)).toEqual(['content_block_stop', 'message_delta', 'message_stop']);
  });

  it('answers sim-error-529 as overloaded, and counts requests', async () => {
    const before = simulator.requests.length;
    const answer = await postMessages({ ...valid, model: 'sim-error-529' });
    expect(answer.status).toBe(529);
    expect(answer.json()).toMatchObject({ type: 'error', error: { type: 'overloaded_error' } });
    expect(simulator.requests.length).toBe(before + 1);
  });
});

describe('Anthropic simulator prompt cache', () => {
  const longSystem = Array.from({ length: 1100 }, (_, index) => `rule${index}`).join(' ');
  const marked = { type: 'ephemeral' };
  const turn = (messages: Array<Record<string, unknown>>, model = 'claude-sim') => ({
    model,
    max_tokens: 100,
    system: [{ type: 'text', text: longSystem }],
    messages,
  });
  const usageOf = async (body: Record<string, unknown>) =>
    ((await postMessages(body)).json() as { usage: Record<string, unknown> }).usage;

  it('writes the prefix up to a breakpoint, then reads it back in a request that extends it (lookback to an earlier breakpoint)', async () => {
    const first = [{ role: 'user', content: [{ type: 'text', text: 'first question', cache_control: marked }] }];
    expect(await usageOf(turn(first))).toMatchObject({
      input_tokens: 0,
      cache_creation_input_tokens: 1102,
      cache_read_input_tokens: 0,
      cache_creation: { ephemeral_5m_input_tokens: 1102, ephemeral_1h_input_tokens: 0 },
    });
    const second = [
      { role: 'user', content: [{ type: 'text', text: 'first question' }] },
      { role: 'assistant', content: 'Echo: first question' },
      { role: 'user', content: [{ type: 'text', text: 'second one', cache_control: marked }] },
    ];
    expect(await usageOf(turn(second))).toMatchObject({
      input_tokens: 0,
      cache_creation_input_tokens: 5,
      cache_read_input_tokens: 1102,
    });
  });

  it('reads nothing for another model, a changed prefix, a prefix under the minimum, or a request without breakpoints', async () => {
    const ask = [{ role: 'user', content: [{ type: 'text', text: 'first question', cache_control: marked }] }];
    expect(await usageOf(turn(ask, 'claude-sim-other'))).toMatchObject({ cache_read_input_tokens: 0 });
    const changed = { ...turn(ask), system: [{ type: 'text', text: `changed ${longSystem}` }] };
    expect(await usageOf(changed)).toMatchObject({ cache_read_input_tokens: 0, cache_creation_input_tokens: 1103 });
    const short = {
      ...valid,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi', cache_control: marked }] }],
    };
    expect(await usageOf(short)).toMatchObject({
      input_tokens: 1,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    });
    const unmarked = turn([{ role: 'user', content: 'first question' }]);
    expect(await usageOf(unmarked)).toMatchObject({ input_tokens: 1102, cache_read_input_tokens: 0 });
  });
});

describe("Anthropic simulator: Claude Code's betas", () => {
  const tool = { name: 'Read', input_schema: { type: 'object' } };
  const deferred = { name: 'WebFetch', input_schema: { type: 'object' }, defer_loading: true };
  const toolSearchTurns = [
    { role: 'user', content: 'q' },
    { role: 'system', content: 'Deferred tools: WebFetch' },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: {} }] },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'tool_reference', tool_name: 'WebFetch' }] },
      ],
    },
  ];
  const toolChange = {
    role: 'system',
    content: [{ type: 'tool_removal', tool: { type: 'tool_reference', name: 'Read' } }],
    clear_at: 'never',
    // Claude Code sends its per-turn effort on its system message.
    output_config: { effort: 'high' },
  };
  const allBetas = 'per-turn-control-2026-07-01,advanced-tool-use-2025-11-20,mid-conversation-tool-changes-2026-07-01';

  it('takes system messages, deferred tools, tool references and tool changes when their betas are named', async () => {
    const answer = await postMessages(
      { ...valid, tools: [tool, deferred], messages: [...toolSearchTurns, toolChange] },
      '2023-06-01',
      { 'anthropic-beta': allBetas },
    );
    expect(answer.status, answer.text).toBe(200);
  });

  it.each([
    [
      'a system message',
      { ...valid, messages: [valid.messages[0], { role: 'system', content: 'x' }] },
      'per-turn-control-2026-07-01',
      'role',
    ],
    ['a deferred tool', { ...valid, tools: [tool, deferred] }, 'advanced-tool-use-2025-11-20', 'defer_loading'],
    [
      'a tool reference',
      {
        ...valid,
        tools: [tool, { ...deferred, defer_loading: undefined }],
        messages: toolSearchTurns.filter((turn) => turn.role !== 'system'),
      },
      'advanced-tool-use-2025-11-20',
      'tool_reference',
    ],
    [
      'a tool change',
      { ...valid, tools: [tool], messages: [valid.messages[0], toolChange] },
      'mid-conversation-tool-changes-2026-07-01',
      'tool_removal',
    ],
  ])('refuses %s without its beta', async (_label, body, beta, message) => {
    const others = allBetas
      .split(',')
      .filter((name) => name !== beta)
      .join(',');
    const answer = await postMessages(body, '2023-06-01', { 'anthropic-beta': others });
    expect(answer.status).toBe(400);
    expect(answer.text).toContain(message);
    const withBeta = await postMessages(body, '2023-06-01', { 'anthropic-beta': allBetas });
    expect(withBeta.status, withBeta.text).toBe(200);
  });

  it("refuses a system message's output_config other than effort", async () => {
    const answer = await postMessages(
      { ...valid, messages: [valid.messages[0], { role: 'system', content: 'x', output_config: { format: {} } }] },
      '2023-06-01',
      { 'anthropic-beta': allBetas },
    );
    expect(answer.status).toBe(400);
    expect(answer.text).toContain('messages.1.output_config.format: Extra inputs are not permitted');
  });

  it('refuses a tool reference or tool change naming no tool of `tools`', async () => {
    const reference = await postMessages({ ...valid, tools: [tool], messages: toolSearchTurns }, '2023-06-01', {
      'anthropic-beta': allBetas,
    });
    expect(reference.status).toBe(400);
    expect(reference.text).toContain("Tool 'WebFetch' not found in tools");
  });
});
