// A video's hold is taken in the shared Redis wallet like a request's: holds of requests in flight on other nodes
// count, so a node cannot accept a video the user's money, already held elsewhere, cannot cover.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/core/gateway-error.js';
import { isContinuousIntegration } from '../helpers/postgres-test-database.js';
import { storageTestEngines, type TestDatabase } from '../helpers/storage-test-engines.js';
import { createTaskHarness, startingBalance, type TaskHarness } from './video-task-harness.js';

const redisUrl = process.env.GATEWAY_TEST_REDIS_URL;
if (!redisUrl && isContinuousIntegration())
  throw new Error('GATEWAY_TEST_REDIS_URL must be set in CI (see .ci/start-redis.sh)');
/** 8 s × 0.100000 per second × group ratio 1.5 */
const heldFor8Seconds = 1_200_000;
const postgres = storageTestEngines('video-wallet').find((engine) => engine.name === 'PostgreSQL')!;

describe.runIf(Boolean(redisUrl) && postgres.run)('video holds in the shared wallet', () => {
  let testDatabase: TestDatabase;
  let harness: TaskHarness;

  beforeEach(async () => {
    testDatabase = await postgres.create();
    harness = await createTaskHarness(testDatabase, { redisUrl });
  });

  afterEach(async () => {
    await harness.close();
    await testDatabase.drop();
  });

  it('refuses a video whose hold the balance cannot cover beside chat holds on another node, and accepts it once they settle', async () => {
    const chatNode = await harness.startNode();
    const { userId } = harness.principal;
    const key = { apiKeyId: 'key_of_chat_requests', spendingCap: null };
    // Requests in flight on the other node hold all but 1,000,000 of the balance there.
    const chatHold = startingBalance - 1_000_000;
    expect(await chatNode.billing.wallet!.hold(userId, chatHold, key)).toBe('held');
    const refused = await harness.node.service.submit(harness.submission({ requestedSeconds: 8 })).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(GatewayError);
    expect((refused as GatewayError).code).toBe('insufficient_quota');
    expect((await harness.billingStore.readStoredBalance(userId))!.balance).toBe(startingBalance);
    // Nothing of the refused video stays held: once the chat requests settle, the same video is accepted.
    await chatNode.billing.wallet!.release(userId, chatHold, key.apiKeyId);
    const view = await harness.node.service.submit(harness.submission({ requestedSeconds: 8 }));
    expect(view.state).toBe('queued');
    expect((await harness.billingStore.readStoredBalance(userId))!.balance).toBe(startingBalance - heldFor8Seconds);
    // The video's hold is durable in the database; the wallet copied it and holds nothing else for it.
    expect(await chatNode.billing.wallet!.hold(userId, startingBalance - heldFor8Seconds + 1, key)).toBe(
      'insufficient',
    );
    expect(await chatNode.billing.wallet!.hold(userId, startingBalance - heldFor8Seconds, key)).toBe('held');
    await chatNode.billing.wallet!.release(userId, startingBalance - heldFor8Seconds, key.apiKeyId);
    expect(await harness.billingStore.findBalanceMismatches()).toEqual([]);
  });
});
