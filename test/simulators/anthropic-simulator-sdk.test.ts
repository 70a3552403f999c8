// The Anthropic simulator driven by the official `@anthropic-ai/sdk`: what inbound Messages pass-through will rely on
// (version and beta headers recorded, `?beta=true`, count_tokens, the model list) behaves as the SDK expects.
import Anthropic from '@anthropic-ai/sdk';
import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startAnthropicSimulator, type AnthropicSimulator } from './anthropic-simulator.js';

const apiKey = 'sk-ant-simulator-sdk';
let simulator: AnthropicSimulator;
let client: Anthropic;

beforeAll(async () => {
  simulator = await startAnthropicSimulator({ apiKey });
  // The SDK appends `/v1/...` itself, so its base URL is the simulator's root.
  client = new Anthropic({ apiKey, baseURL: simulator.url.replace(/\/v1$/, ''), maxRetries: 0 });
});
afterAll(async () => {
  await simulator.close();
});
beforeEach(() => simulator.reset());

const weatherTool = {
  name: 'get_weather',
  description: 'weather',
  input_schema: { type: 'object' as const, properties: { query: { type: 'string' } } },
};

/** The error a promise rejects with (fails the test if it resolves). */
async function rejectionOf(promise: Promise<unknown>): Promise<Error & { error?: unknown }> {
  return promise.then(
    () => expect.fail('expected the call to fail'),
    (error: unknown) => error as Error,
  );
}

describe('Anthropic simulator through the official SDK', () => {
  it('answers messages.create and records the version and bearer key the SDK sent', async () => {
    const message = await client.messages.create({
      model: 'claude-sim',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'hello there' }],
    });
    expect(message).toMatchObject({
      type: 'message',
      role: 'assistant',
      stop_reason: 'end_turn',
      content: [{ type: 'text', text: 'Echo: hello there' }],
    });
    expect(message.usage).toMatchObject({ input_tokens: 2, output_tokens: 3 });
    const [recorded] = simulator.requests;
    expect(recorded).toMatchObject({ method: 'POST', path: '/v1/messages' });
    expect(recorded?.query).toBeUndefined();
    expect(recorded?.headers['anthropic-version']).toBe('2026-10-21');
    expect(recorded?.headers.authorization).toBe(`Bearer ${apiKey}`);
  });

  it('streams an answer messages.stream().finalMessage() accepts, text and tool use alike', async () => {
    const text = await client.messages
      .stream({ model: 'claude-sim', max_tokens: 100, messages: [{ role: 'user', content: 'one two three' }] })
      .finalMessage();
    expect(text.content).toHaveLength(1);
    expect(text.content[0]).toMatchObject({ type: 'text', text: 'Echo: one two three' });
    expect(text.usage.output_tokens).toBe(4);
    const tools = await client.messages
      .stream({
        model: 'claude-sim',
        max_tokens: 100,
        tools: [weatherTool],
        messages: [{ role: 'user', content: 'weather?' }],
      })
      .finalMessage();
    expect(tools.stop_reason).toBe('tool_use');
    expect(tools.content[0]).toMatchObject({ type: 'tool_use', name: 'get_weather', input: { query: 'weather?' } });
  });

  it('accepts the beta client and records its anthropic-beta header as sent', async () => {
    const message = await client.beta.messages.create({
      model: 'claude-sim',
      max_tokens: 100,
      betas: ['interleaved-thinking-2025-05-14', 'claude-code-20250219'],
      messages: [{ role: 'user', content: 'beta hello' }],
    });
    expect(message.content[0]).toMatchObject({ type: 'text', text: 'Echo: beta hello' });
    expect(simulator.requests[0]?.headers['anthropic-beta']).toBe(
      'interleaved-thinking-2025-05-14,claude-code-20250219',
    );
  });

  it('takes a beta body field only while the anthropic-beta header names its beta, so a dropped header shows', async () => {
    const body = {
      model: 'claude-sim',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'hi' }],
      context_management: { edits: [] },
    };
    const withoutBeta = await rejectionOf(client.messages.create(body as never));
    expect(withoutBeta).toBeInstanceOf(Anthropic.BadRequestError);
    expect(withoutBeta.message).toContain('context_management: Extra inputs are not permitted');
    const withBeta = await client.messages.create(body as never, {
      headers: { 'anthropic-beta': 'context-management-2025-06-27' },
    });
    expect(withBeta.content[0]).toMatchObject({ type: 'text', text: 'Echo: hi' });
  });

  it('accepts `POST /v1/messages?beta=true` as Claude Code sends it, recording the query', async () => {
    const answer = await request(`${simulator.url}/messages?beta=true`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'anthropic-version': '2023-06-01',
        'x-api-key': apiKey,
        'anthropic-beta': 'claude-code-20250219',
      },
      body: JSON.stringify({ model: 'claude-sim', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(answer.statusCode).toBe(200);
    expect(await answer.body.json()).toMatchObject({ content: [{ type: 'text', text: 'Echo: hi' }] });
    expect(simulator.requests[0]).toMatchObject({ path: '/v1/messages', query: 'beta=true' });
  });

  it('counts tokens as the created message reports them, and refuses max_tokens there as Anthropic does', async () => {
    const body = {
      model: 'claude-sim',
      system: 'be brief',
      messages: [{ role: 'user' as const, content: 'count these four words' }],
    };
    const counted = await client.messages.countTokens(body);
    const created = await client.messages.create({ ...body, max_tokens: 100 });
    expect(counted).toEqual({ input_tokens: 6 });
    expect(counted.input_tokens).toBe(created.usage.input_tokens);
    expect(simulator.requests[0]).toMatchObject({ method: 'POST', path: '/v1/messages/count_tokens' });
    const refused = await rejectionOf(client.messages.countTokens({ ...body, max_tokens: 5 } as never));
    expect(refused).toBeInstanceOf(Anthropic.BadRequestError);
    expect(refused.error).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', message: 'max_tokens: Extra inputs are not permitted' },
    });
  });

  it("lists models in Anthropic's shape, page by page, and retrieves one", async () => {
    const firstPage = await client.models.list();
    expect(firstPage.data.map((model) => model.id)).toEqual([
      'claude-opus-4-5',
      'claude-sonnet-4-5',
      'claude-haiku-4-5',
    ]);
    expect(firstPage.data[0]).toMatchObject({
      type: 'model',
      display_name: 'Claude Opus 4.5',
      created_at: '2026-09-01T00:00:00Z',
    });
    const paged: string[] = [];
    for await (const model of client.models.list({ limit: 1 })) paged.push(model.id);
    expect(paged).toEqual(['claude-opus-4-5', 'claude-sonnet-4-5', 'claude-haiku-4-5']);
    expect(simulator.requests.map((recorded) => recorded.query)).toContain('limit=1&after_id=claude-opus-4-5');
    expect(await client.models.retrieve('claude-haiku-4-5')).toMatchObject({ id: 'claude-haiku-4-5', type: 'model' });
    expect(await rejectionOf(client.models.retrieve('claude-nonexistent'))).toBeInstanceOf(Anthropic.NotFoundError);
  });

  it('serves count_tokens and the model list to an x-api-key client on 2023-06-01 too, and checks the key there', async () => {
    const headers = { 'anthropic-version': '2023-06-01', 'x-api-key': apiKey };
    const models = await request(`${simulator.url}/models?limit=2`, { headers });
    expect(models.statusCode).toBe(200);
    expect(await models.body.json()).toMatchObject({
      has_more: true,
      first_id: 'claude-opus-4-5',
      last_id: 'claude-sonnet-4-5',
    });
    const stranger = await request(`${simulator.url}/models`, { headers: { ...headers, 'x-api-key': 'wrong' } });
    expect(stranger.statusCode).toBe(401);
    expect(await stranger.body.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
  });

  it('surfaces vendor failures as the SDK typed errors, before and during a stream', async () => {
    const ask = (model: string) =>
      client.messages.create({ model, max_tokens: 10, messages: [{ role: 'user', content: 'x' }] });
    expect(await rejectionOf(ask('sim-error-429'))).toBeInstanceOf(Anthropic.RateLimitError);
    const overloaded = await rejectionOf(ask('sim-error-529'));
    expect(overloaded).toMatchObject({ status: 529, error: { error: { type: 'overloaded_error' } } });
    const midStream = await rejectionOf(
      client.messages
        .stream({
          model: 'sim-stream-error-event',
          max_tokens: 10,
          messages: [{ role: 'user', content: 'one two three' }],
        })
        .finalMessage(),
    );
    expect(midStream).toBeInstanceOf(Anthropic.APIError);
    expect(midStream.error).toMatchObject({ type: 'error', error: { type: 'overloaded_error' } });
  });
});
