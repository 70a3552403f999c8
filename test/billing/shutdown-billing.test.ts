// A graceful shutdown settles every request in flight by the client-abort rule and loses none: what finishes within
// the grace period is billed from its usage; what still waits on a vendor then is cut and charged its estimated input.
import { rm } from 'node:fs/promises';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { estimateWorstCaseUsage } from '../../src/billing/estimate-worst-case-usage.js';
import type { MeteredRequest } from '../../src/billing/request-accounting.js';
import { requestEstimateOf } from './request-estimate-of-body.js';
import { createBillingStore } from '../../src/storage/kysely-billing-store.js';
import { createUnitPrice, startBillingTestGateway, type BillingTestGateway } from './start-billing-test-gateway.js';

const startingBalance = 1_000_000;
const messages = [{ role: 'user', content: 'one two three' }];
/** Answers after 200 ms (two words), well inside the grace period. */
const quickModel = 'sim-paced-2x100';
const models = [quickModel, 'sim-hang'];

let gateway: BillingTestGateway;

beforeAll(async () => {
  gateway = await startBillingTestGateway({
    models,
    prices: models.map(createUnitPrice),
    config: { shutdownGraceMs: 1_000 },
  });
});

afterAll(async () => {
  await gateway?.simulator.close();
  if (gateway) await rm(gateway.dataDirectory, { recursive: true, force: true });
});

describe('graceful shutdown', () => {
  it('settles every request in flight: finished ones from their usage, ones still waiting on a vendor at the estimated input', async () => {
    const send = async (model: string) => {
      const user = await gateway.createUser();
      const key = await gateway.createKey(user);
      await gateway.topUp(user, startingBalance);
      const answer = request(`${gateway.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key.secret}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model, messages }),
      }).then(
        async (response) => ({ status: response.statusCode, text: await response.body.text() }),
        () => ({ status: 0, text: 'connection closed' }),
      );
      return { userId: user.id, answer };
    };
    const quick = await send(quickModel);
    const stuck = await send('sim-hang');
    await vi.waitFor(() => expect(gateway.simulator.requests).toHaveLength(2), { timeout: 10_000, interval: 5 });

    await gateway.running.close();

    expect((await quick.answer).status).toBe(200);
    expect(await stuck.answer).toEqual({ status: 0, text: 'connection closed' });
    const store = createBillingStore({ databaseUrl: gateway.databaseUrl });
    try {
      const request = {
        endpoint: 'chat.completions',
        estimate: requestEstimateOf('chat.completions', { model: 'sim-hang', messages }),
        model: { id: 'sim-hang', maxOutputTokens: undefined },
      } as unknown as MeteredRequest;
      const estimatedInput = estimateWorstCaseUsage(request).inputTokens;
      expect(estimatedInput).toBeGreaterThan(0);
      expect(
        (await store.listUsageLogs({ userId: quick.userId, limit: 10 })).map((log) => [log.status, log.cost]),
      ).toEqual([[200, 3 + 2]]);
      expect(
        (await store.listUsageLogs({ userId: stuck.userId, limit: 10 })).map((log) => [
          log.status,
          log.errorCode,
          log.cost,
        ]),
      ).toEqual([[499, 'client_closed_request', estimatedInput]]);
      expect(await store.readBalance(stuck.userId)).toBe(startingBalance - estimatedInput);
      expect(await store.findBalanceMismatches()).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
