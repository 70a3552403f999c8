import { readdir } from 'node:fs/promises';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/core/gateway-error.js';
import { storageTestEngines, type TestDatabase } from '../helpers/storage-test-engines.js';
import { createTaskHarness, startingBalance, type TaskHarness } from './video-task-harness.js';

/** 8 s × 0.100000 per second × group ratio 1.5 */
const heldFor8Seconds = 1_200_000;

const engines = storageTestEngines('video-tasks');

for (const engine of engines) {
  describe.runIf(engine.run)(`video task lifecycle on ${engine.name}`, () => {
    let testDatabase: TestDatabase;
    let harness: TaskHarness;

    beforeEach(async () => {
      testDatabase = await engine.create();
      harness = await createTaskHarness(testDatabase);
    });

    afterEach(async () => {
      await harness.close();
      await testDatabase.drop();
    });

    const storedBalance = async () => (await harness.billingStore.readStoredBalance(harness.principal.userId))!.balance;
    const ledgerOf = async (taskId: string) =>
      (await harness.billingStore.listLedgerEntries(harness.principal.userId, { limit: 100 })).filter(
        (entry) => entry.reference === taskId,
      );
    const expectMoneyConsistent = async () => {
      expect(await harness.billingStore.findBalanceMismatches()).toEqual([]);
      expect(await harness.taskStore.findTaskHoldMismatches()).toEqual([]);
    };
    const rejection = async (work: Promise<unknown>): Promise<GatewayError> => {
      const error = await work.then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(GatewayError);
      return error as GatewayError;
    };

    it('holds before the vendor call, tracks progress, downloads the video and settles once for the seconds made', async () => {
      const { node, vendor } = harness;
      const view = await node.service.submit(harness.submission({ requestedSeconds: 7 }));
      expect(view).toMatchObject({
        state: 'queued',
        seconds: 8,
        requestedSeconds: 7,
        width: 720,
        height: 1280,
        model: 'sora-test',
        progress: 0,
        error: null,
      });
      expect(view.id).toMatch(/^task_[0-9a-f]{32}$/);
      expect(vendor.requests).toEqual(['POST /videos']);
      expect(await storedBalance()).toBe(startingBalance - heldFor8Seconds);
      expect(node.billing.memory.user(harness.principal.userId).balance).toBe(startingBalance - heldFor8Seconds);
      expect((await ledgerOf(view.id)).map((entry) => [entry.kind, entry.amount])).toEqual([
        ['hold', -heldFor8Seconds],
      ]);
      await expectMoneyConsistent();

      harness.now.value += 5_000;
      vendor.jobs.get('vid_1')!.status = 'in_progress';
      vendor.jobs.get('vid_1')!.progress = 40;
      await node.poller.pollOnce();
      expect(await node.service.get(harness.principal, view.id)).toMatchObject({ state: 'in-progress', progress: 40 });

      harness.now.value += 5_000;
      Object.assign(vendor.jobs.get('vid_1')!, { status: 'completed', progress: 100, seconds: 4 });
      await node.poller.pollOnce();
      const done = await node.service.get(harness.principal, view.id);
      expect(done).toMatchObject({
        state: 'completed',
        progress: 100,
        completedAt: Math.floor(harness.now.value / 1000),
      });
      // Made 4 s of the 8 held: charged 4 × 0.1 × 1.5, the rest released.
      expect(await storedBalance()).toBe(startingBalance - 600_000);
      expect(node.billing.memory.user(harness.principal.userId).balance).toBe(startingBalance - 600_000);
      expect((await ledgerOf(view.id)).map((entry) => entry.kind).sort()).toEqual(['hold', 'refund', 'settlement']);
      await expectMoneyConsistent();
      const content = await node.service.openContent(null, view.id, 'video');
      expect(await text(content.body)).toBe('VIDEO-BYTES-vid_1');
      expect((await rejection(node.service.openContent(harness.principal, view.id, 'thumbnail'))).status).toBe(404);

      // Polling again changes nothing: the task is finished and its money settled.
      harness.now.value += 60_000;
      await node.poller.pollOnce();
      expect(await storedBalance()).toBe(startingBalance - 600_000);
      await node.billing.writer.flush();
      const logs = await harness.billingStore.listUsageLogs({ userId: harness.principal.userId, limit: 10 });
      expect(logs.map((log) => [log.endpoint, log.cost]).sort()).toEqual([
        ['videos', 0],
        ['videos.settlement', 600_000],
      ]);
    });

    it('refuses with 429 insufficient_quota, holding nothing and calling no vendor, when the balance or the key cap cannot cover the video', async () => {
      await harness.billingStore.changeBalance({
        userId: harness.principal.userId,
        kind: 'adjustment',
        amount: -(startingBalance - 1_000_000),
        description: 'drain',
      });
      await harness.node.billing.refresh(true);
      const refused = await rejection(harness.node.service.submit(harness.submission({ requestedSeconds: 8 })));
      expect(refused.status).toBe(429);
      expect(refused.code).toBe('insufficient_quota');
      expect(harness.vendor.requests).toEqual([]);
      expect(await storedBalance()).toBe(1_000_000);
      expect(await harness.taskStore.listForUser(harness.principal.userId, { limit: 10, order: 'desc' })).toEqual([]);

      // 4 s (600_000) fits the balance but not a key capped at 0.5.
      const limits = { requestsPerMinute: null, tokensPerMinute: null, maxConcurrentRequests: null };
      await harness.billingStore.setApiKeyBilling(harness.principal.apiKeyId, {
        spendingCap: 500_000,
        allowedIps: [],
        limits,
      });
      await harness.node.billing.refresh(true);
      const capped = await rejection(harness.node.service.submit(harness.submission({ requestedSeconds: 4 })));
      expect(capped.code).toBe('insufficient_quota');
      expect(capped.message).toMatch(/spending cap/);
      expect(harness.vendor.requests).toEqual([]);
      expect(await harness.taskStore.listForUser(harness.principal.userId, { limit: 10, order: 'desc' })).toEqual([]);
      await expectMoneyConsistent();
    });

    it('gives the client the vendor 400 on submit, releases the hold and keeps no visible task; fails over on a vendor 500', async () => {
      harness.vendor.submitFailures.push(400);
      const refused = await rejection(harness.node.service.submit(harness.submission()));
      expect(refused.status).toBe(400);
      expect(await storedBalance()).toBe(startingBalance);
      expect((await harness.node.service.list(harness.principal, { limit: 10, order: 'desc' })).tasks).toEqual([]);
      await expectMoneyConsistent();

      harness.channels.push({
        ...harness.channels[0]!,
        id: 'ch_fallback',
        baseUrl: harness.otherVendor.url,
        priority: 1,
      });
      harness.vendor.submitFailures.push(500);
      const view = await harness.node.service.submit(harness.submission());
      expect(view.state).toBe('queued');
      expect(harness.otherVendor.requests).toEqual(['POST /videos']);
      expect(await storedBalance()).toBe(startingBalance - heldFor8Seconds);
      await expectMoneyConsistent();
    });

    it('times out an unfinished task: cancels at the vendor, fails it with task_timeout and refunds the hold', async () => {
      const view = await harness.node.service.submit(harness.submission());
      harness.now.value += 60 * 60_000;
      await harness.node.poller.pollOnce();
      expect(harness.vendor.requests).toContain('DELETE /videos/vid_1');
      const failed = await harness.node.service.get(harness.principal, view.id);
      expect(failed.state).toBe('failed');
      expect(failed.error).toEqual({ code: 'task_timeout', message: expect.stringMatching(/timed out/) });
      expect(await storedBalance()).toBe(startingBalance);
      await expectMoneyConsistent();
    });

    it('stopping the poller cuts a download in progress: no file, not completed, downloaded whole by the next look', async () => {
      const { node, vendor } = harness;
      const view = await node.service.submit(harness.submission());
      Object.assign(vendor.jobs.get('vid_1')!, { status: 'completed', seconds: 8 });
      vendor.stallDownloads = true;
      // Longer than the test's own timeout: only cutting the download lets `stop` return in time.
      node.context.dispatch.bodyTimeoutMs = 120_000;
      harness.now.value += 5_000;
      const look = node.poller.pollOnce();
      // A bounded wait for the download to start; the vendor then sends nothing more.
      for (let tries = 0; tries < 500 && !vendor.requests.includes('GET /videos/vid_1/content'); tries++)
        await new Promise((resolve) => setTimeout(resolve, 10));
      expect(vendor.requests).toContain('GET /videos/vid_1/content');
      await node.poller.stop();
      await look;
      expect((await node.service.get(harness.principal, view.id)).state).toBe('in-progress');
      expect(await readdir(harness.storageFolder)).toEqual([]);
      expect(await storedBalance()).toBe(startingBalance - heldFor8Seconds);

      vendor.stallDownloads = false;
      harness.now.value += 60_000;
      await node.poller.pollOnce();
      expect((await node.service.get(harness.principal, view.id)).state).toBe('completed');
      expect(await text((await node.service.openContent(null, view.id, 'video')).body)).toBe('VIDEO-BYTES-vid_1');
      await expectMoneyConsistent();
    });

    it('answers 404 for an expired task and removes its stored video', async () => {
      const view = await harness.node.service.submit(harness.submission());
      Object.assign(harness.vendor.jobs.get('vid_1')!, { status: 'completed', seconds: 8 });
      harness.now.value += 5_000;
      await harness.node.poller.pollOnce();
      const stored = await harness.taskStore.find(view.id);
      expect(await harness.node.context.storage.open(stored!.contentLocation!)).toBeDefined();
      harness.now.value += 24 * 3_600_000;
      const error = await rejection(harness.node.service.get(harness.principal, view.id));
      expect(error.status).toBe(404);
      expect(error.message).toMatch(/expired/);
      await harness.node.poller.pollOnce();
      expect(await harness.node.context.storage.open(stored!.contentLocation!)).toBeUndefined();
      expect((await harness.taskStore.find(view.id))!.contentRemovedAt).toBe(harness.now.value);
    });

    it('lets a restarted gateway pick a task up once the dead poller lease lapses, and bills it once', async () => {
      const view = await harness.node.service.submit(harness.submission());
      harness.now.value += 5_000;
      // The first gateway claims the task and dies before polling it.
      expect(await harness.taskStore.claimDue('dead-poller', harness.now.value, 60_000, 10)).toHaveLength(1);
      await harness.node.close();
      Object.assign(harness.vendor.jobs.get('vid_1')!, { status: 'completed', seconds: 8 });
      const restarted = await harness.startNode();
      expect(restarted.billing.memory.user(harness.principal.userId).balance).toBe(startingBalance - heldFor8Seconds);
      await restarted.poller.pollOnce();
      expect((await restarted.service.get(harness.principal, view.id)).state).toBe('queued');
      harness.now.value += 60_001;
      await restarted.poller.pollOnce();
      expect((await restarted.service.get(harness.principal, view.id)).state).toBe('completed');
      expect((await ledgerOf(view.id)).filter((entry) => entry.kind === 'settlement')).toHaveLength(1);
      expect(await storedBalance()).toBe(startingBalance - heldFor8Seconds);
      await expectMoneyConsistent();
    });

    it('settles once when two pollers race on one task', async () => {
      const view = await harness.node.service.submit(harness.submission());
      const second = await harness.startNode();
      Object.assign(harness.vendor.jobs.get('vid_1')!, { status: 'completed', seconds: 8 });
      let openGate!: () => void;
      harness.vendor.pollGate = new Promise<void>((resolve) => (openGate = resolve));
      harness.now.value += 5_000;
      const first = harness.node.poller.pollOnce();
      await waitUntil(() => harness.vendor.requests.filter((request) => request === 'GET /videos/vid_1').length === 1);
      // The first poller is stuck past its lease: the second claims the same task.
      harness.now.value += 5 * 60_000 + 1;
      const other = second.poller.pollOnce();
      await waitUntil(() => harness.vendor.requests.filter((request) => request === 'GET /videos/vid_1').length === 2);
      openGate();
      await Promise.all([first, other]);
      expect((await harness.node.service.get(harness.principal, view.id)).state).toBe('completed');
      expect((await ledgerOf(view.id)).map((entry) => entry.kind).sort()).toEqual(['hold', 'refund', 'settlement']);
      expect(await storedBalance()).toBe(startingBalance - heldFor8Seconds);
      await expectMoneyConsistent();
    });

    it('backs off after a vendor 429 or 500 on poll, leaving the state unchanged', async () => {
      const view = await harness.node.service.submit(harness.submission());
      const polls = () => harness.vendor.requests.filter((request) => request.startsWith('GET')).length;
      harness.vendor.pollFailures.push({ status: 429, retryAfter: '40' }, { status: 500 });
      harness.now.value += 5_000;
      await harness.node.poller.pollOnce();
      expect(polls()).toBe(1);
      const afterRateLimit = (await harness.taskStore.find(view.id))!;
      expect(afterRateLimit).toMatchObject({ state: 'queued', nextPollAt: harness.now.value + 40_000 });
      harness.now.value += 39_000;
      await harness.node.poller.pollOnce();
      expect(polls()).toBe(1);
      harness.now.value += 1_000;
      await harness.node.poller.pollOnce();
      expect(polls()).toBe(2);
      // Two failures in a row: 5 s doubled twice.
      expect((await harness.taskStore.find(view.id))!).toMatchObject({
        state: 'queued',
        pollAttempts: 2,
        nextPollAt: harness.now.value + 20_000,
      });
      harness.now.value += 20_000;
      await harness.node.poller.pollOnce();
      expect(polls()).toBe(3);
      expect((await harness.taskStore.find(view.id))!).toMatchObject({ state: 'queued', pollAttempts: 0 });
    });

    it('retries a poll the vendor answers with a redirect instead of failing the task', async () => {
      const view = await harness.node.service.submit(harness.submission());
      harness.vendor.pollFailures.push({ status: 302 });
      harness.now.value += 5_000;
      await harness.node.poller.pollOnce();
      expect((await harness.taskStore.find(view.id))!).toMatchObject({ state: 'queued', pollAttempts: 1 });
      Object.assign(harness.vendor.jobs.get('vid_1')!, { status: 'completed', seconds: 8 });
      harness.now.value += 60_000;
      await harness.node.poller.pollOnce();
      expect((await harness.node.service.get(harness.principal, view.id)).state).toBe('completed');
      await expectMoneyConsistent();
    });
  });
}

/** Waits (on the event loop, not on time) until the loopback vendor has seen what the test waits for. */
async function waitUntil(condition: () => boolean): Promise<void> {
  for (let turn = 0; turn < 10_000 && !condition(); turn++) await new Promise((resolve) => setImmediate(resolve));
  if (!condition()) throw new Error('condition never became true');
}
