import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDatabase, type CreatedDatabase } from '../../src/storage/create-database.js';
import type { BillingStore } from '../../src/storage/billing-store.js';
import { createBillingStore } from '../../src/storage/kysely-billing-store.js';
import { createGatewayStore } from '../../src/storage/kysely-gateway-store.js';
import { createVideoTaskStore } from '../../src/storage/kysely-video-task-store.js';
import type { NewVideoTask, VideoTaskRecord } from '../../src/storage/video-task-records.js';
import type { VideoTaskStore } from '../../src/storage/video-task-store.js';
import { sourceStatesOf, videoTaskTransitions } from '../../src/tasks/video-task-transitions.js';
import type { VideoTaskState } from '../../src/tasks/video-task-service.js';
import { storageTestEngines, type TestDatabase } from '../helpers/storage-test-engines.js';

const engines = storageTestEngines('video-task-store');
const now = Date.UTC(2026, 10, 24, 12);

describe('video task transition table', () => {
  it('allows exactly queued → in-progress | failed and in-progress → completed | failed (and progress in place)', () => {
    const allowed = (Object.keys(videoTaskTransitions) as VideoTaskState[]).flatMap((from) =>
      videoTaskTransitions[from].filter((to) => to !== from).map((to) => `${from}->${to}`),
    );
    expect(allowed.sort()).toEqual([
      'in-progress->completed',
      'in-progress->failed',
      'queued->failed',
      'queued->in-progress',
    ]);
    expect(sourceStatesOf('completed')).toEqual(['in-progress']);
    expect(sourceStatesOf('failed')).toEqual(['queued', 'in-progress']);
  });
});

for (const engine of engines) {
  describe.runIf(engine.run)(`video task store on ${engine.name}`, () => {
    let testDatabase: TestDatabase;
    let database: CreatedDatabase;
    let billingStore: BillingStore;
    let store: VideoTaskStore;
    let userId: string;
    let apiKeyId: string;
    let groupId: string;
    let counter = 0;

    beforeEach(async () => {
      testDatabase = await engine.create();
      database = createDatabase(testDatabase.url);
      const gatewayStore = createGatewayStore({ database });
      await gatewayStore.migrate();
      billingStore = createBillingStore({ database });
      store = createVideoTaskStore(database.database);
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
        keyHash: 'a'.repeat(64),
        keyPrefix: 'sk-gw-aaaa',
        expiresAt: null,
      });
      userId = user.id;
      apiKeyId = key.id;
      groupId = group.id;
      await billingStore.changeBalance({ userId, kind: 'top-up', amount: 1_000_000, description: 'test' });
    });

    afterEach(async () => {
      await database.database.destroy();
      await testDatabase.drop();
    });

    function newTask(heldAmount: number): NewVideoTask {
      return {
        id: `task_${++counter}`,
        userId,
        apiKeyId,
        groupId,
        surface: 'spec',
        publicModel: 'sora-test',
        upstreamModel: 'sora-2',
        prompt: 'p',
        requestedSeconds: 8,
        seconds: 8,
        width: 720,
        height: 1280,
        createdAt: now,
        expiresAt: now + 86_400_000,
        heldAmount,
        pricePerSecond: 50_000,
        priceRatioMillionths: 1_000_000,
        nextPollAt: now,
        requestId: 'req',
      };
    }

    async function heldTask(heldAmount = 400_000): Promise<VideoTaskRecord> {
      const outcome = await store.createWithHold(newTask(heldAmount));
      if (outcome.outcome !== 'held') throw new Error(outcome.outcome);
      return outcome.task;
    }

    const balance = async () => (await billingStore.readBalance(userId))!;
    const complete = { kind: 'complete' as const, cost: 300_000, generatedSeconds: 6, contentLocation: 'task.mp4' };
    const fail = { kind: 'fail' as const, code: 'vendor_failed', message: 'no' };

    it('holds with the insert, and stores nothing when the balance, the debt or the key cap refuses', async () => {
      const task = await heldTask();
      expect(task).toMatchObject({ state: 'queued', version: 0, heldAmount: 400_000, openHold: 400_000 });
      expect(await balance()).toBe(600_000);
      expect(await store.createWithHold(newTask(700_000))).toEqual({ outcome: 'insufficient' });
      await billingStore.setApiKeyBilling(apiKeyId, {
        spendingCap: 500_000,
        allowedIps: [],
        limits: { requestsPerMinute: null, tokensPerMinute: null, maxConcurrentRequests: null },
      });
      expect(await store.createWithHold(newTask(200_000))).toEqual({ outcome: 'cap' });
      await database.database.updateTable('users').set({ debt: 1 }).where('id', '=', userId).execute();
      expect(await store.createWithHold(newTask(1))).toEqual({ outcome: 'debt' });
      await database.database.updateTable('users').set({ debt: 0 }).where('id', '=', userId).execute();
      expect(await balance()).toBe(600_000);
      expect(await store.listForUser(userId, { limit: 10, order: 'asc' })).toHaveLength(1);
      expect(await store.findTaskHoldMismatches()).toEqual([]);
    });

    it('applies every allowed transition once and refuses the others and stale versions', async () => {
      const task = await heldTask();
      expect(await store.change(task.id, task.version, sourceStatesOf('completed'), complete, now)).toEqual({
        outcome: 'stale',
      });
      const started = await store.change(
        task.id,
        task.version,
        sourceStatesOf('in-progress'),
        { kind: 'progress', state: 'in-progress', progress: 30 },
        now,
      );
      expect(started).toMatchObject({
        outcome: 'applied',
        task: { state: 'in-progress', progress: 30, version: 1, startedAt: now },
      });
      expect(
        await store.change(
          task.id,
          task.version,
          sourceStatesOf('in-progress'),
          { kind: 'progress', state: 'in-progress', progress: 50 },
          now,
        ),
      ).toEqual({ outcome: 'stale' });
      const completed = await store.change(task.id, 1, sourceStatesOf('completed'), complete, now + 1);
      expect(completed).toMatchObject({
        outcome: 'applied',
        released: 400_000,
        charged: 300_000,
        task: { state: 'completed', openHold: 0, settledAmount: 300_000, version: 2, completedAt: now + 1 },
      });
      expect(await store.change(task.id, 2, sourceStatesOf('failed'), fail, now)).toEqual({ outcome: 'stale' });
      expect(await balance()).toBe(700_000);

      const queued = await heldTask();
      const failed = await store.change(queued.id, 0, sourceStatesOf('failed'), fail, now);
      expect(failed).toMatchObject({
        outcome: 'applied',
        released: 400_000,
        charged: 0,
        task: { state: 'failed', errorCode: 'vendor_failed' },
      });
      expect(
        await store.change(
          queued.id,
          1,
          sourceStatesOf('in-progress'),
          { kind: 'progress', state: 'in-progress', progress: 1 },
          now,
        ),
      ).toEqual({ outcome: 'stale' });
      expect(await balance()).toBe(700_000);
      expect(await billingStore.findBalanceMismatches()).toEqual([]);
      expect(await store.findTaskHoldMismatches()).toEqual([]);
    });

    it('settles exactly once when two writers race on the same version', async () => {
      const task = await heldTask();
      await store.change(
        task.id,
        0,
        sourceStatesOf('in-progress'),
        { kind: 'progress', state: 'in-progress', progress: 0 },
        now,
      );
      const outcomes = await Promise.all([
        store.change(task.id, 1, sourceStatesOf('completed'), complete, now),
        store.change(task.id, 1, sourceStatesOf('failed'), fail, now),
      ]);
      expect(outcomes.filter((outcome) => outcome.outcome === 'applied')).toHaveLength(1);
      const entries = (await billingStore.listLedgerEntries(userId, { limit: 20 })).filter(
        (entry) => entry.reference === task.id,
      );
      expect(entries.filter((entry) => entry.kind === 'refund')).toHaveLength(1);
      expect(await billingStore.findBalanceMismatches()).toEqual([]);
      expect(await store.findTaskHoldMismatches()).toEqual([]);
    });

    it('leases a due task to one poller until the lease lapses', async () => {
      const task = await heldTask();
      const [first, second] = await Promise.all([
        store.claimDue('a', now, 1_000, 5),
        store.claimDue('b', now, 1_000, 5),
      ]);
      expect([...first!, ...second!].map((claimed) => claimed.id)).toEqual([task.id]);
      expect(await store.claimDue('c', now + 1_000, 1_000, 5)).toEqual([]);
      expect((await store.claimDue('c', now + 1_001, 1_000, 5)).map((claimed) => claimed.leaseOwner)).toEqual(['c']);
    });

    it('makes verify find a tampered hold', async () => {
      const running = await heldTask();
      const finished = await heldTask(100_000);
      await store.change(finished.id, 0, sourceStatesOf('failed'), fail, now);
      expect(await store.findTaskHoldMismatches()).toEqual([]);
      await database.database
        .updateTable('video_tasks')
        .set({ open_hold: 100_000 })
        .where('id', '=', finished.id)
        .execute();
      await database.database.updateTable('video_tasks').set({ open_hold: 1 }).where('id', '=', running.id).execute();
      await sql`insert into ledger_entries (id, user_id, kind, amount, debt_change, description, reference, created_at) values ('led_x', ${userId}, 'hold', -5, 0, 'x', 'task_none', ${now})`.execute(
        database.database,
      );
      const problems = await store.findTaskHoldMismatches();
      expect(problems.map((problem) => problem.taskId).sort()).toEqual(
        [finished.id, finished.id, running.id, running.id, 'task_none'].sort(),
      );
      expect(problems.find((problem) => problem.taskId === finished.id)!.problem).toMatch(/terminal task keeps a hold/);
    });
  });
}
