// The admin API for the model catalog: a change reaches /v1 on the next request, without a restart.
import OpenAI from 'openai';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminTokenPrefix, generateConsoleToken, hashConsoleToken } from '../../src/accounts/console-token.js';
import {
  createUnitPrice,
  startBillingTestGateway,
  type BillingTestGateway,
} from '../billing/start-billing-test-gateway.js';

const model = 'in-house-model';
const password = 'catalog admin password';
let gateway: BillingTestGateway;
let adminToken: string;

beforeAll(async () => {
  gateway = await startBillingTestGateway({ models: [model], prices: [createUnitPrice(model)] });
  adminToken = generateConsoleToken(adminTokenPrefix);
  await gateway.running.billing.store.createAdminToken({
    tokenHash: hashConsoleToken(adminToken),
    name: 'catalog test',
  });
});

afterAll(async () => {
  await gateway?.close();
});

async function callApi(
  method: 'GET' | 'PUT' | 'DELETE' | 'POST',
  path: string,
  token: string | undefined,
  body?: unknown,
) {
  const response = await request(`${gateway.url}/api${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.statusCode, body: (await response.body.json()) as any };
}

const imageMessage: OpenAI.Chat.ChatCompletionMessageParam = {
  role: 'user',
  content: [
    { type: 'text', text: 'what is this?' },
    { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
  ],
};

describe('the catalog API', () => {
  it('lets an admin describe a model, with effect on /v1 at once, and undo it', async () => {
    const user = await gateway.createUser('user', password);
    const key = await gateway.createKey(user);
    await gateway.topUp(user, 10_000_000);
    const client = gateway.client(key.secret);
    // Unknown to the catalog, the model is shown as its channel's and may take images.
    expect((await client.models.retrieve(model)).owned_by).not.toBe('acme');
    await expect(
      client.chat.completions.create({ model, messages: [imageMessage], max_tokens: 5 }),
    ).resolves.toBeDefined();

    const put = await callApi('PUT', `/catalog/${model}`, adminToken, {
      ownedBy: 'acme',
      kind: 'chat',
      contextWindow: 32_000,
      inputModalities: ['text'],
    });
    expect(put.status).toBe(200);
    expect(put.body.model).toMatchObject({
      id: model,
      ownedBy: 'acme',
      contextWindow: 32_000,
      inputModalities: ['text'],
    });
    expect((await client.models.retrieve(model)).owned_by).toBe('acme');
    const refused = await client.chat.completions
      .create({ model, messages: [imageMessage], max_tokens: 5 })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
    expect((refused as InstanceType<typeof OpenAI.BadRequestError>).message).toMatch(/does not support image input/);

    const entries = await callApi('GET', '/catalog/entries', adminToken);
    expect(entries.body.data).toEqual([
      expect.objectContaining({
        modelId: model,
        fields: { ownedBy: 'acme', kind: 'chat', contextWindow: 32_000, inputModalities: ['text'] },
      }),
    ]);
    expect((await callApi('GET', '/catalog', adminToken)).body.data).toContainEqual(
      expect.objectContaining({ id: model, ownedBy: 'acme' }),
    );

    expect((await callApi('DELETE', `/catalog/${model}`, adminToken)).status).toBe(200);
    expect((await client.models.retrieve(model)).owned_by).not.toBe('acme');
    await expect(
      client.chat.completions.create({ model, messages: [imageMessage], max_tokens: 5 }),
    ).resolves.toBeDefined();
  });

  it('changes only the named fields of a built-in model, default prices included', async () => {
    const put = await callApi('PUT', '/catalog/gpt-4o', adminToken, {
      maxOutputTokens: 1_000,
      defaultPrices: { inputPerMillion: 7, outputPerMillion: 9 },
    });
    expect(put.status).toBe(200);
    expect(put.body.model).toMatchObject({
      id: 'gpt-4o',
      ownedBy: 'openai',
      maxOutputTokens: 1_000,
      inputModalities: ['text', 'image'],
    });
    const prices = (await callApi('GET', '/prices', adminToken)).body.data as Array<{
      modelId: string;
      inputPerMillion: number;
      outputPerMillion: number;
    }>;
    expect(prices.find((price) => price.modelId === 'gpt-4o')).toMatchObject({
      inputPerMillion: 7,
      outputPerMillion: 9,
    });
    expect((await callApi('DELETE', '/catalog/gpt-4o', adminToken)).body.model).toMatchObject({
      maxOutputTokens: 16_384,
    });
  });

  it('refuses bad entries and non-admins, and changes nothing', async () => {
    const user = await gateway.createUser('user', password);
    const session = (await callApi('POST', '/auth/login', undefined, { email: user.email, password })).body
      .token as string;
    expect((await callApi('GET', '/catalog', session)).status).toBe(200);
    expect((await callApi('PUT', `/catalog/${model}`, session, { ownedBy: 'acme', kind: 'chat' })).status).toBe(403);
    expect((await callApi('GET', '/catalog/entries', session)).status).toBe(403);

    const noOwner = await callApi('PUT', '/catalog/brand-new-model', adminToken, { kind: 'chat' });
    expect(noOwner.status).toBe(400);
    expect(noOwner.body.error).toMatchObject({ type: 'invalid_request_error', param: 'ownedBy' });
    const typo = await callApi('PUT', '/catalog/gpt-4o', adminToken, { contextWindw: 5 });
    expect(typo.status).toBe(400);
    const negative = await callApi('PUT', '/catalog/gpt-4o', adminToken, { contextWindow: -1 });
    expect(negative.body.error.param).toBe('contextWindow');
    expect((await callApi('DELETE', '/catalog/never-stored', adminToken)).status).toBe(404);
    expect((await callApi('GET', '/catalog/entries', adminToken)).body.data).toEqual([]);
  });
});
