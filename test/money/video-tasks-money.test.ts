// Money matrix, video slice: a video task (the task layer over a real database and billing runtime, the loopback video
// vendor) is held for the seconds it may make and, on every exit, settled once: charged the seconds the vendor reports
// it made at the per-second price × the group's ratio, rounded up once; a vendor failure or a task timeout releases
// the whole hold. Streaming and client aborts do not exist for tasks, so the table has none.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { storageTestEngines, type TestDatabase } from '../helpers/storage-test-engines.js';
import {
  createTaskHarness,
  groupRatioMillionths,
  pricePerSecond,
  startingBalance,
  type TaskHarness,
} from '../tasks/video-task-harness.js';

/** How a video task ends at its vendor. */
type VideoExit =
  | { kind: 'completed'; secondsMade: number }
  | { kind: 'vendor-failed' }
  /** never finished within the task timeout */
  | { kind: 'vendor-timeout' };

const videoCases: ReadonlyArray<{ name: string; requestedSeconds: number; exit: VideoExit }> = [
  { name: 'completed, all the seconds held', requestedSeconds: 8, exit: { kind: 'completed', secondsMade: 8 } },
  { name: 'completed, fewer seconds than held', requestedSeconds: 7, exit: { kind: 'completed', secondsMade: 3 } },
  { name: 'vendor failure', requestedSeconds: 8, exit: { kind: 'vendor-failed' } },
  { name: 'vendor timeout (task timeout)', requestedSeconds: 8, exit: { kind: 'vendor-timeout' } },
];

/** seconds × micro-units per second × ratio in millionths, rounded up once, computed here. */
function expectedVideoCharge(exit: VideoExit): number {
  switch (exit.kind) {
    case 'completed': {
      const millionths = BigInt(exit.secondsMade) * BigInt(pricePerSecond) * BigInt(groupRatioMillionths);
      return Number((millionths + 999_999n) / 1_000_000n);
    }
    case 'vendor-failed':
    case 'vendor-timeout':
      return 0;
    default: {
      const unreachable: never = exit;
      throw new Error(`unknown exit ${JSON.stringify(unreachable)}`);
    }
  }
}

const sqlite = storageTestEngines('money-video').find((engine) => engine.name === 'SQLite')!;

describe('a video task is charged the seconds its vendor made, on every exit', () => {
  let testDatabase: TestDatabase;
  let harness: TaskHarness;

  beforeEach(async () => {
    testDatabase = await sqlite.create();
    harness = await createTaskHarness(testDatabase);
  });

  afterEach(async () => {
    await harness.close();
    await testDatabase.drop();
  });

  it.each(videoCases)('$name', async ({ requestedSeconds, exit }) => {
    const { node, vendor, principal } = harness;
    const view = await node.service.submit(harness.submission({ requestedSeconds }));
    const job = vendor.jobs.get('vid_1')!;
    switch (exit.kind) {
      case 'completed':
        Object.assign(job, { status: 'completed', progress: 100, seconds: exit.secondsMade });
        harness.now.value += 5_000;
        break;
      case 'vendor-failed':
        job.status = 'failed';
        harness.now.value += 5_000;
        break;
      case 'vendor-timeout':
        harness.now.value += 60 * 60_000;
        break;
      default: {
        const unreachable: never = exit;
        throw new Error(`unknown exit ${JSON.stringify(unreachable)}`);
      }
    }
    await node.poller.pollOnce();
    expect((await node.service.get(principal, view.id)).state).toBe(exit.kind === 'completed' ? 'completed' : 'failed');
    const charge = expectedVideoCharge(exit);
    expect((await harness.billingStore.readStoredBalance(principal.userId))!.balance).toBe(startingBalance - charge);
    // The ledger of the task nets to the charge: its hold, the part given back, and its settlement.
    const entries = await harness.billingStore.listLedgerEntries(principal.userId, { limit: 100 });
    const taskEntries = entries.filter((entry) => entry.reference === view.id);
    expect(taskEntries.reduce((total, entry) => total - entry.amount + entry.debtChange, 0)).toBe(charge);
    await node.billing.writer.flush();
    const logs = await harness.billingStore.listUsageLogs({ userId: principal.userId, limit: 10 });
    expect(logs.reduce((total, log) => total + log.cost, 0)).toBe(charge);
    expect(await harness.billingStore.findBalanceMismatches()).toEqual([]);
    expect(await harness.taskStore.findTaskHoldMismatches()).toEqual([]);
  });
});
