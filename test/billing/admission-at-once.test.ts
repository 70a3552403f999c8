// Admission on one node: with the key known and money enough it completes in the same turn (no promise), so its
// checks and holds can never interleave with another request's; what must wait (a short balance) still waits, and
// refusals are the same either way.
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadBillingConfig } from '../../src/billing/billing-config.js';
import { BillingRuntime } from '../../src/billing/billing-runtime.js';
import { createBillingAccounting } from '../../src/billing/create-billing-accounting.js';
import { GatewayError } from '../../src/core/gateway-error.js';
import type { CatalogModel } from '../../src/routing/catalog-model.js';
import type { KeyPrincipal } from '../../src/routing/routing-table.js';
import type { MeteredRequest, MeteredTicket, RequestAccounting } from '../../src/billing/request-accounting.js';
import type { BillingStore } from '../../src/storage/billing-store.js';
import { createBillingStore } from '../../src/storage/kysely-billing-store.js';
import { createGatewayStore } from '../../src/storage/kysely-gateway-store.js';
import { storageTestEngines, type TestDatabase } from '../helpers/storage-test-engines.js';
import { requestEstimateOf } from './request-estimate-of-body.js';

const [sqlite] = storageTestEngines('admission-at-once');

// 10 currency units per million output tokens: a hold of 1,000 output tokens is 10,000 micro-units plus its input.
const model: CatalogModel = {
  id: 'priced',
  ownedBy: 'vendor',
  kind: 'chat',
  created: 0,
  inputModalities: ['text'],
  defaultPrices: { inputPerMillion: 1_000_000, outputPerMillion: 10_000_000 },
};

describe('admission on one node', () => {
  let database: TestDatabase;
  let store: BillingStore;
  let runtime: BillingRuntime;
  let principal: KeyPrincipal;

  async function start(environment: NodeJS.ProcessEnv): Promise<RequestAccounting> {
    runtime = await BillingRuntime.start({
      store,
      config: loadBillingConfig(environment),
      logger: pino({ level: 'silent' }),
      clock: Date.now,
      revisionCheckIntervalMs: 0,
      catalogModels: [model],
    });
    return createBillingAccounting(runtime);
  }

  beforeEach(async () => {
    database = await sqlite!.create();
    const gatewayStore = createGatewayStore({ databaseUrl: database.url });
    await gatewayStore.migrate();
    const user = await gatewayStore.createUser({
      email: 'ada@example.com',
      displayName: 'Ada',
      role: 'user',
      passwordHash: null,
    });
    const group = await gatewayStore.createModelGroup({ name: 'default', description: '', models: ['*'] });
    const key = await gatewayStore.createApiKey({
      userId: user.id,
      groupId: group.id,
      name: 'k',
      keyHash: 'c'.repeat(64),
      keyPrefix: 'sk-gw-cccc',
      expiresAt: null,
    });
    await gatewayStore.close();
    principal = {
      apiKeyId: key.id,
      userId: user.id,
      groupId: group.id,
      groupName: group.name,
      expiresAt: null,
      allowedModels: null,
    };
    store = createBillingStore({ databaseUrl: database.url });
    await store.migrate();
    // Enough for one hold of about 10,000 micro-units, not for two.
    await store.changeBalance({ userId: user.id, kind: 'top-up', amount: 15_000, description: 'card' });
  });

  afterEach(async () => {
    await runtime.close();
    await store.close();
    await database.drop();
  });

  function chatRequest(): MeteredRequest {
    return {
      principal,
      model,
      endpoint: 'chat.completions',
      estimate: requestEstimateOf('chat.completions', {
        model: model.id,
        messages: [{ role: 'user', content: 'Hello' }],
        max_tokens: 1_000,
      }),
      uploadedBytes: 0,
      uploadedAudioSeconds: undefined,
      streamed: false,
      clientIp: '127.0.0.1',
      requestId: 'req_test',
      receivedAt: Date.now(),
    };
  }

  it('admits a covered request at once and holds its worst case before returning; a second one the balance cannot cover waits for a balance check and is refused', async () => {
    const accounting = await start({});
    const first = accounting.open(chatRequest());
    expect(first).not.toBeInstanceOf(Promise);
    expect(runtime.memory.user(principal.userId).held).toBeGreaterThan(10_000);

    const second = accounting.open(chatRequest());
    expect(second).toBeInstanceOf(Promise);
    await expect(second).rejects.toMatchObject({ code: 'insufficient_quota', status: 429 });
    // The refusal took nothing and was counted (refusals write no usage row).
    expect(runtime.memory.user(principal.userId).held).toBe((first as MeteredTicket & { held: number }).held);
    expect(runtime.writer.queuedRows).toBe(0);
    expect(runtime.writer.refusedGroups).toBe(1);
  });

  it('refuses a request over its rate limit at once, with the limit headers, and counts the refusal', async () => {
    const accounting = await start({ GATEWAY_KEY_REQUESTS_PER_MINUTE: '1' });
    const first = accounting.open(chatRequest()) as MeteredTicket;
    expect(first.responseHeaders['x-ratelimit-remaining-requests']).toBe('0');
    accounting.close(first, {
      channelId: undefined,
      status: 200,
      errorCode: undefined,
      usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2, cachedPromptTokens: 0, reasoningTokens: 0 },
      generatedText: undefined,
      firstByteAt: undefined,
      finishedAt: Date.now(),
      clientAborted: false,
      answerUsage: undefined,
    });

    let refusal: unknown;
    try {
      const admission = accounting.open(chatRequest());
      // Admission at once refuses synchronously; a promise here is the regression this test exists for.
      expect(admission).not.toBeInstanceOf(Promise);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(GatewayError);
    expect(refusal).toMatchObject({ code: 'rate_limit_exceeded', status: 429 });
    expect((refusal as GatewayError).headers['x-ratelimit-limit-requests']).toBe('1');
    // The settled request is queued; the refusal is counted.
    expect(runtime.writer.queuedRows).toBe(1);
    expect(runtime.writer.refusedGroups).toBe(1);
  });
});
