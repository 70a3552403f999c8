import { createRequire } from 'node:module';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOpenAiClient,
  postRawJson,
  sendRawRequest,
  startTestGateway,
  type TestGateway,
} from '../helpers/start-test-gateway.js';
import {
  createUnitPrice,
  startBillingTestGateway,
  type BillingTestGateway,
} from '../billing/start-billing-test-gateway.js';

// The Anthropic surface of the real gateway through the official @anthropic-ai/sdk: what needs no channel answer
// (count_tokens, models, auth, every error path). Answers through channels are in test/protocols/anthropic-messages/messages-end-to-end.test.ts.

const servedModels = ['claude-sonnet-test', 'deepseek-chat', 'gpt-4o', 'text-embedding-3-small'];
const unreachableModel = 'claude-unreachable';

let gateway: TestGateway;
let key: string;
let client: Anthropic;

/** An Anthropic client of the gateway, sending the key as the SDK does (Bearer) unless told otherwise. */
function anthropicClient(options: { apiKey?: string | null; headers?: Record<string, string> } = {}): Anthropic {
  return new Anthropic({
    apiKey: options.apiKey === undefined ? key : options.apiKey,
    authToken: null,
    baseURL: gateway.url,
    maxRetries: 0,
    defaultHeaders: options.headers,
  });
}

beforeAll(async () => {
  gateway = await startTestGateway({ config: { bodyLimitBytes: 64 * 1024 } });
  // Nothing listens on port 9: the model exists, but no channel can be reached.
  await gateway.createChannel({
    baseUrl: 'http://127.0.0.1:9/v1',
    secret: 'sk-unreachable',
    models: [...servedModels, unreachableModel],
  });
  key = (await gateway.createKey({ models: ['*'] })).secret;
  client = anthropicClient();
});

afterAll(async () => {
  await gateway?.close();
});

const question = {
  model: 'claude-sonnet-test',
  max_tokens: 100,
  messages: [{ role: 'user' as const, content: 'Hello, how are you today?' }],
};

describe('POST /v1/messages/count_tokens', () => {
  it('counts the input with the gateway tokenizer', async () => {
    const counted = await client.messages.countTokens({ model: 'claude-sonnet-test', messages: question.messages });
    // 4 tokens of message overhead + 7 tokens of "Hello, how are you today?" (o200k).
    expect(counted).toEqual({ input_tokens: 11 });
    const withSystemAndTools = await client.messages.countTokens({
      model: 'claude-sonnet-test',
      system: 'Be brief.',
      messages: question.messages,
      tools: [{ name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }],
    });
    expect(withSystemAndTools.input_tokens).toBeGreaterThan(counted.input_tokens + 4);
    // Counted by the tokenizer worker: the gateway's (this) thread never loads gpt-tokenizer's tables.
    expect(gateway.running.billing.tokenCounter.startedWorkers).toBeGreaterThan(0);
    const require = createRequire(import.meta.url);
    expect(require.cache[require.resolve('gpt-tokenizer')]).toBeUndefined();
  });

  it('answers 404 not_found_error for a model outside the key group', async () => {
    const error = await client.messages
      .countTokens({ model: 'no-such-model', messages: question.messages })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.NotFoundError);
    expect(error).toMatchObject({ status: 404, error: { type: 'error', error: { type: 'not_found_error' } } });
  });
});

describe('GET /v1/models with anthropic-version', () => {
  it('lists the key group models in Anthropic shape through models.list()', async () => {
    const models: Anthropic.ModelInfo[] = [];
    for await (const model of client.models.list()) models.push(model);
    expect(models.map((model) => model.id)).toEqual([...servedModels, unreachableModel].sort());
    for (const model of models) {
      expect(model).toMatchObject({ type: 'model', display_name: model.id });
      expect(new Date(model.created_at).toISOString()).toBe(model.created_at);
    }
  });

  it('pages with limit, after_id and before_id', async () => {
    const headers = { 'anthropic-version': '2023-06-01' };
    const ids = [...servedModels, unreachableModel].sort();
    const first = (await sendRawRequest(gateway, { path: '/v1/models?limit=2', apiKey: key, headers })).json();
    expect(first).toMatchObject({ has_more: true, first_id: ids[0], last_id: ids[1] });
    const next = (
      await sendRawRequest(gateway, { path: `/v1/models?limit=2&after_id=${ids[1]}`, apiKey: key, headers })
    ).json();
    expect(next).toMatchObject({ has_more: true, first_id: ids[2], last_id: ids[3] });
    const last = (
      await sendRawRequest(gateway, { path: `/v1/models?limit=2&after_id=${ids[3]}`, apiKey: key, headers })
    ).json();
    expect(last).toMatchObject({ data: [{ id: ids[4] }], has_more: false, first_id: ids[4], last_id: ids[4] });
    const before = (
      await sendRawRequest(gateway, { path: `/v1/models?limit=1&before_id=${ids[2]}`, apiKey: key, headers })
    ).json();
    expect(before).toMatchObject({ data: [{ id: ids[1] }], has_more: true });
    const badLimit = await sendRawRequest(gateway, { path: '/v1/models?limit=0', apiKey: key, headers });
    expect(badLimit.status).toBe(400);
    expect(badLimit.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
  });

  it('retrieves one model in Anthropic shape, and 404s in Anthropic shape', async () => {
    expect(await client.models.retrieve('claude-sonnet-test')).toMatchObject({
      type: 'model',
      id: 'claude-sonnet-test',
      display_name: 'claude-sonnet-test',
    });
    await expect(client.models.retrieve('no-such-model')).rejects.toBeInstanceOf(Anthropic.NotFoundError);
  });

  it('keeps the OpenAI shape and errors for clients without anthropic-version', async () => {
    const list = await createOpenAiClient(gateway, key).models.list();
    expect(list.data[0]).toMatchObject({ object: 'model', owned_by: expect.any(String) });
    const missing = await sendRawRequest(gateway, { path: '/v1/models/no-such-model', apiKey: key });
    expect(missing.json()).toMatchObject({ error: { code: 'model_not_found' } });
  });
});

describe('API keys on /v1', () => {
  it('accepts the key in x-api-key as well as Authorization: Bearer', async () => {
    const byHeader = anthropicClient({ apiKey: null, headers: { 'x-api-key': key } });
    expect(await byHeader.messages.countTokens({ model: 'claude-sonnet-test', messages: question.messages })).toEqual({
      input_tokens: 11,
    });
    const openAiRoute = await sendRawRequest(gateway, { path: '/v1/models', headers: { 'x-api-key': key } });
    expect(openAiRoute.status).toBe(200);
  });

  it('refuses a bad key with AuthenticationError in Anthropic shape, keeping the request id', async () => {
    const error = await anthropicClient({ apiKey: 'sk-not-a-key-of-this-gateway' })
      .messages.create(question)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.AuthenticationError);
    const apiError = error as InstanceType<typeof Anthropic.AuthenticationError>;
    expect(apiError.error).toMatchObject({
      type: 'error',
      error: { type: 'authentication_error', message: expect.stringMatching(/Incorrect API key/) },
    });
    expect(apiError.requestID).toMatch(/^req_/);
    expect(apiError.headers?.get('x-request-id')).toBe(apiError.requestID);

    const missing = await sendRawRequest(gateway, {
      path: '/v1/messages',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(question),
    });
    expect(missing.status).toBe(401);
    expect(missing.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
  });
});

describe('POST /v1/messages errors, in Anthropic shape', () => {
  it('answers a missing max_tokens with BadRequestError naming it, also with ?beta=true', async () => {
    const { max_tokens: _omitted, ...withoutMaxTokens } = question;
    const error = await client.messages
      .create(withoutMaxTokens as Anthropic.MessageCreateParamsNonStreaming)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect(error).toMatchObject({
      status: 400,
      error: {
        type: 'error',
        error: { type: 'invalid_request_error', message: "Missing required parameter: 'max_tokens'." },
      },
    });

    const beta = await postRawJson(gateway, key, '/v1/messages?beta=true', withoutMaxTokens);
    expect(beta.status).toBe(400);
    expect(beta.json()).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error' },
      request_id: expect.stringMatching(/^req_/),
    });
    expect(beta.headers['request-id']).toBe(beta.headers['x-request-id']);
  });

  it('answers a body that is not JSON, or not JSON at all, in Anthropic shape', async () => {
    const broken = await sendRawRequest(gateway, {
      path: '/v1/messages',
      apiKey: key,
      headers: { 'content-type': 'application/json' },
      body: '{"model":',
    });
    expect(broken.status).toBe(400);
    expect(broken.json()).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', message: expect.stringMatching(/JSON/) },
    });
    const plainText = await sendRawRequest(gateway, {
      path: '/v1/messages',
      apiKey: key,
      headers: { 'content-type': 'text/plain' },
      body: 'hello',
    });
    expect(plainText.status).toBe(415);
    expect(plainText.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
  });

  it('refuses server tools with a clear BadRequestError', async () => {
    const error = await client.messages
      .create({ ...question, tools: [{ type: 'web_search_20250305', name: 'web_search' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error as InstanceType<typeof Anthropic.APIError>).message).toMatch(/server tools/);
  });

  it('refuses images for a text-only model, naming the block, in user turns and tool results', async () => {
    const image = {
      type: 'image' as const,
      source: { type: 'base64' as const, media_type: 'image/png' as const, data: 'iVBORw0KGgo=' },
    };
    const direct = await client.messages
      .create({
        ...question,
        model: 'deepseek-chat',
        messages: [{ role: 'user', content: [{ type: 'text', text: 'what is it?' }, image] }],
      })
      .catch((caught: unknown) => caught);
    expect(direct).toBeInstanceOf(Anthropic.BadRequestError);
    expect((direct as InstanceType<typeof Anthropic.BadRequestError>).message).toMatch(/does not support image input/);
    const inToolResult = await postRawJson(gateway, key, '/v1/messages', {
      ...question,
      model: 'deepseek-chat',
      messages: [
        { role: 'user', content: 'look' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'snap', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [image] }] },
      ],
    });
    expect(inToolResult.status).toBe(400);
    expect(inToolResult.json()).toMatchObject({
      error: {
        type: 'invalid_request_error',
        message: expect.stringContaining("'messages[2].content[0].content[0]' is an image"),
      },
    });
  });

  it('answers an unknown model with NotFoundError', async () => {
    await expect(client.messages.create({ ...question, model: 'no-such-model' })).rejects.toBeInstanceOf(
      Anthropic.NotFoundError,
    );
  });

  it('answers 413 request_too_large for a body over the limit', async () => {
    const huge = { ...question, messages: [{ role: 'user', content: 'x'.repeat(100 * 1024) }] };
    const response = await postRawJson(gateway, key, '/v1/messages', huge);
    expect(response.status).toBe(413);
    expect(response.json()).toMatchObject({ type: 'error', error: { type: 'request_too_large' } });
  });

  it('answers 404 not_found_error for an unknown /v1/messages path, 405 for a wrong method', async () => {
    const unknown = await sendRawRequest(gateway, { path: '/v1/messages/batches', apiKey: key });
    expect(unknown.status).toBe(404);
    expect(unknown.json()).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
    const wrongMethod = await sendRawRequest(gateway, { path: '/v1/messages', apiKey: key });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
  });

  it('answers 529 overloaded_error when no channel can be reached', async () => {
    const error = await client.messages
      .create({ ...question, model: unreachableModel })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.InternalServerError);
    expect(error).toMatchObject({ status: 529, error: { type: 'error', error: { type: 'overloaded_error' } } });
    const streamed = await client.messages
      .stream({ ...question, model: unreachableModel })
      .finalMessage()
      .catch((caught: unknown) => caught);
    expect(streamed).toMatchObject({ status: 529, error: { type: 'error', error: { type: 'overloaded_error' } } });
  });

  it('keeps OpenAI-shaped errors on the OpenAI routes', async () => {
    const response = await postRawJson(gateway, key, '/v1/chat/completions', { model: 'gpt-4o' });
    expect(response.status).toBe(400);
    expect(response.json()).toMatchObject({ error: { type: 'invalid_request_error', param: 'messages' } });
  });
});

describe('POST /v1/messages with an empty balance', () => {
  const model = 'claude-billed-test';
  let billed: BillingTestGateway;

  beforeAll(async () => {
    billed = await startBillingTestGateway({ models: [model], prices: [createUnitPrice(model)] });
  });

  afterAll(async () => {
    await billed?.close();
  });

  it('answers RateLimitError (429 rate_limit_error) that tells the SDK not to retry, before any upstream call', async () => {
    const { secret } = await billed.createKey(await billed.createUser());
    const broke = new Anthropic({ apiKey: secret, baseURL: billed.url, maxRetries: 0 });
    const error = await broke.messages.create({ ...question, model }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.RateLimitError);
    const apiError = error as InstanceType<typeof Anthropic.RateLimitError>;
    expect(apiError.error).toMatchObject({
      type: 'error',
      error: { type: 'rate_limit_error', message: expect.stringMatching(/balance|quota/) },
    });
    expect(apiError.headers?.get('x-should-retry')).toBe('false');
    expect(billed.simulator.requests).toEqual([]);
  });

  it('refuses count_tokens to a key with no balance (free of charge, but not to anyone: docs/API.md, Limits)', async () => {
    const { secret } = await billed.createKey(await billed.createUser());
    const broke = new Anthropic({ apiKey: secret, baseURL: billed.url, maxRetries: 0 });
    await expect(broke.messages.countTokens({ model, messages: question.messages })).rejects.toMatchObject({
      status: 429,
    });
  });
});
