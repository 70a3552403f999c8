// The forwarded-field policy on a running gateway: what reaches an OpenAI-wire vendor is the official fields, the
// preset's documented extras, and price-changing fields only where the operator enabled and priced them.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectErrorResponseShape } from '../helpers/openai-response-shapes.js';
import { postRawJson, startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';
import { startOpenAiSimulator, type OpenAiSimulator } from '../simulators/openai-simulator.js';

const channelSecret = 'sk-upstream-forwarded-fields';
const user = { role: 'user', content: 'hello there' };

let simulator: OpenAiSimulator;
let gateway: TestGateway;
let clientKey: string;

beforeAll(async () => {
  simulator = await startOpenAiSimulator({ apiKey: channelSecret });
  gateway = await startTestGateway();
  const channel = { baseUrl: simulator.url, secret: channelSecret, refreshRouting: false } as const;
  // A plain OpenAI channel: official fields only.
  await gateway.createChannel({
    ...channel,
    models: ['gpt-4o', 'text-embedding-3-small', 'dall-e-2', 'gpt-3.5-turbo-instruct'],
  });
  // The operator enabled (and priced) premium fields and opted in to store/metadata on this one.
  await gateway.createChannel({
    ...channel,
    models: ['gpt-4o-premium'],
    settings: {
      premiumFields: 'service_tier,web_search_options,audio,modalities',
      premiumPriceRatio: '2',
      forwardStoreAndMetadata: 'on',
    },
  });
  // Premium fields listed but no price ratio: the price is not modelled, so they stay refused.
  await gateway.createChannel({ ...channel, models: ['gpt-4o-unpriced'], settings: { premiumFields: 'service_tier' } });
  await gateway.createChannel({ ...channel, models: ['openrouter/auto'], preset: 'openrouter' });
  await gateway.createChannel({ ...channel, models: ['local-llama'], preset: 'vllm' });
  // One model, two channels: the plain one is preferred, the vLLM one accepts `top_k`, a third enables service_tier.
  await gateway.createChannel({
    ...channel,
    models: ['shared-model'],
    priority: 10,
    modelMapping: { 'shared-model': 'plain-upstream' },
  });
  await gateway.createChannel({
    ...channel,
    models: ['shared-model'],
    priority: 5,
    preset: 'vllm',
    modelMapping: { 'shared-model': 'vllm-upstream' },
  });
  await gateway.createChannel({
    ...channel,
    models: ['shared-model'],
    priority: 1,
    modelMapping: { 'shared-model': 'premium-upstream' },
    settings: { premiumFields: 'service_tier', premiumPriceRatio: '1.5' },
  });
  await gateway.createChannel({ ...channel, models: ['azure-gpt-4o'], protocol: 'azure' });
  // Translated vendors: never reached by these tests (the gateway refuses first), so the address may be dead.
  await gateway.createChannel({
    baseUrl: 'http://127.0.0.1:9/v1',
    secret: 'unused',
    models: ['claude-test'],
    protocol: 'anthropic',
    refreshRouting: false,
  });
  await gateway.createChannel({
    baseUrl: 'http://127.0.0.1:9',
    secret: 'id:secret',
    models: ['bedrock-test'],
    protocol: 'bedrock',
    refreshRouting: false,
  });
  await gateway.createChannel({
    baseUrl: 'http://127.0.0.1:9/v1beta',
    secret: 'unused',
    models: ['gemini-test'],
    protocol: 'gemini',
    refreshRouting: false,
  });
  clientKey = (await gateway.createKey()).secret;
});

afterAll(async () => {
  await gateway?.close();
  await simulator?.close();
});

beforeEach(() => simulator.reset());

function chat(body: Record<string, unknown>) {
  return postRawJson(gateway, clientKey, '/v1/chat/completions', { messages: [user], ...body });
}

function forwardedBodies(): Array<Record<string, unknown>> {
  return simulator.requests.map((recorded) => recorded.body as Record<string, unknown>);
}

async function expectRefused(
  response: Awaited<ReturnType<typeof chat>>,
  param: string,
  message: RegExp,
): Promise<void> {
  expect(response.status, response.text).toBe(400);
  expect(expectErrorResponseShape(response.json())).toMatchObject({ type: 'invalid_request_error', param });
  expect((response.json() as { error: { message: string } }).error.message).toMatch(message);
  expect(simulator.requests).toHaveLength(0);
}

describe('price-changing fields', () => {
  it.each([
    ['service_tier', 'priority'],
    ['service_tier', 'flex'],
    ['service_tier', 'fast'],
    ['service_tier', 'scale'],
    ['audio', { voice: 'alloy', format: 'wav' }],
    ['modalities', ['text', 'audio']],
    ['web_search_options', {}],
    ['prediction', { type: 'content', content: 'a draft' }],
    ['moderation', { model: 'omni-moderation-latest' }],
  ])('refuses %s = %j with a 400 naming it, and never calls the vendor', async (field, value) => {
    await expectRefused(await chat({ model: 'gpt-4o', [field]: value }), field, /changes the price or the model/);
  });

  it.each([['auto'], ['default'], [null]])(
    'forwards service_tier %j, which is billed at the standard price',
    async (tier) => {
      const response = await chat({ model: 'gpt-4o', service_tier: tier });
      expect(response.status, response.text).toBe(200);
      expect(forwardedBodies()[0]).toMatchObject({ service_tier: tier });
    },
  );

  it('forwards the fields a channel enabled with a price ratio', async () => {
    const response = await chat({
      model: 'gpt-4o-premium',
      service_tier: 'priority',
      web_search_options: { search_context_size: 'low' },
    });
    expect(response.status, response.text).toBe(200);
    expect(forwardedBodies()[0]).toMatchObject({
      service_tier: 'priority',
      web_search_options: { search_context_size: 'low' },
    });
  });

  it('keeps refusing a field the channel enabled without a price ratio (its price is not modelled)', async () => {
    await expectRefused(
      await chat({ model: 'gpt-4o-unpriced', service_tier: 'priority' }),
      'service_tier',
      /changes the price/,
    );
  });

  it('still refuses a premium field the channel did not enable', async () => {
    await expectRefused(
      await chat({ model: 'gpt-4o-premium', prediction: { type: 'content', content: 'x' } }),
      'prediction',
      /changes the price/,
    );
  });

  it('sends a premium request only to the channel that enables it, even when it has the lowest priority', async () => {
    const response = await chat({ model: 'shared-model', service_tier: 'priority' });
    expect(response.status, response.text).toBe(200);
    expect(forwardedBodies().map((body) => body.model)).toEqual(['premium-upstream']);
  });

  it.each([
    ['models', ['openai/gpt-4o', 'anthropic/claude-3-opus']],
    ['provider', { order: ['OpenAI'] }],
    ['plugins', [{ id: 'web' }]],
    ['route', 'fallback'],
  ])("refuses OpenRouter's %s, which could serve (and bill) another model", async (field, value) => {
    await expectRefused(
      await chat({ model: 'openrouter/auto', [field]: value }),
      field,
      /changes the price or the model/,
    );
  });

  it("refuses Azure's data_sources on an Azure channel", async () => {
    await expectRefused(
      await chat({ model: 'azure-gpt-4o', data_sources: [{ type: 'azure_search', parameters: {} }] }),
      'data_sources',
      /changes the price/,
    );
  });

  it.each([['claude-test'], ['bedrock-test'], ['gemini-test']])(
    'refuses a premium field for the translated model %s',
    async (model) => {
      await expectRefused(await chat({ model, service_tier: 'priority' }), 'service_tier', /changes the price/);
    },
  );
});

describe('fields outside the official description', () => {
  it('refuses an unknown field the way OpenAI does', async () => {
    await expectRefused(
      await chat({ model: 'gpt-4o', frobnicate: true }),
      'frobnicate',
      /^Unrecognized request argument supplied: frobnicate$/,
    );
  });

  it('refuses a vendor extra on a channel whose preset does not document it', async () => {
    await expectRefused(
      await chat({ model: 'gpt-4o', top_k: 40 }),
      'top_k',
      /^Unrecognized request argument supplied: top_k$/,
    );
  });

  it('refuses an unknown field on the other JSON endpoints', async () => {
    const embedding = await postRawJson(gateway, clientKey, '/v1/embeddings', {
      model: 'text-embedding-3-small',
      input: 'hi',
      top_k: 3,
    });
    await expectRefused(embedding, 'top_k', /Unrecognized request argument supplied: top_k/);
    const image = await postRawJson(gateway, clientKey, '/v1/images/generations', { prompt: 'a cat', seed: 3 });
    await expectRefused(image, 'seed', /Unrecognized request argument supplied: seed/);
    const completion = await postRawJson(gateway, clientKey, '/v1/completions', {
      model: 'gpt-3.5-turbo-instruct',
      prompt: 'hi',
      tools: [],
    });
    await expectRefused(completion, 'tools', /Unrecognized request argument supplied: tools/);
  });

  it("forwards a preset's documented extra (vLLM top_k) and checks its range", async () => {
    const response = await chat({ model: 'local-llama', top_k: 40, min_p: 0.1, repetition_penalty: 1.1 });
    expect(response.status, response.text).toBe(200);
    expect(forwardedBodies()[0]).toMatchObject({ top_k: 40, min_p: 0.1, repetition_penalty: 1.1 });
    simulator.reset();
    await expectRefused(await chat({ model: 'local-llama', min_p: 3 }), 'min_p', /Invalid value for 'min_p'/);
  });

  it('sends a request with a vendor extra only to the channel that accepts it', async () => {
    const response = await chat({ model: 'shared-model', top_k: 5 });
    expect(response.status, response.text).toBe(200);
    expect(forwardedBodies().map((body) => body.model)).toEqual(['vllm-upstream']);
  });

  it('refuses a request whose fields no single channel accepts together', async () => {
    await expectRefused(
      await chat({ model: 'shared-model', top_k: 5, service_tier: 'priority' }),
      'top_k',
      /cannot be combined with the other fields/,
    );
  });
});

describe('store and metadata', () => {
  it('are dropped for a channel that did not opt in', async () => {
    const response = await chat({ model: 'gpt-4o', store: true, metadata: { team: 'a' } });
    expect(response.status, response.text).toBe(200);
    expect(forwardedBodies()[0]).not.toHaveProperty('store');
    expect(forwardedBodies()[0]).not.toHaveProperty('metadata');
  });

  it('are forwarded to a channel with forwardStoreAndMetadata=on', async () => {
    const response = await chat({ model: 'gpt-4o-premium', store: true, metadata: { team: 'a' } });
    expect(response.status, response.text).toBe(200);
    expect(forwardedBodies()[0]).toMatchObject({ store: true, metadata: { team: 'a' } });
  });

  it('are still checked: metadata values must be strings', async () => {
    await expectRefused(await chat({ model: 'gpt-4o', metadata: { team: 1 } }), 'metadata.team', /Invalid value/);
  });
});
