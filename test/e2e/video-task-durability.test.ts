// A gateway restarted mid-task finishes it and bills it once; two gateways on one PostgreSQL poll
// the same tasks and settle each once.
import { afterEach, describe, expect, it } from 'vitest';
import { shouldRunPostgresTests } from '../helpers/postgres-test-database.js';
import {
  pollUntilFinished,
  pricePerSecondOf,
  readSpecTask,
  sendVideoRequest,
  startVideoEndToEnd,
  vendorPrompts,
  type VideoEndToEnd,
} from './video-end-to-end-gateway.js';

let setup: VideoEndToEnd | undefined;

afterEach(async () => {
  await setup?.close();
  setup = undefined;
});

async function submitSpecTask(current: VideoEndToEnd, model: string, duration: number): Promise<string> {
  const answer = await sendVideoRequest(current.gateway, '/v1/videos/generations', {
    key: current.ownerKey,
    json: { model, prompt: vendorPrompts.success, duration, async: true },
  });
  expect(answer.status, answer.body.toString()).toBe(200);
  return answer.json().id as string;
}

describe('a restart mid-task', () => {
  it.each(['sora-2', 'veo-3.0-generate-001-landscape'])(
    '%s: the restarted gateway picks the task up, completes it and bills it once',
    async (model) => {
      const current = await startVideoEndToEnd();
      setup = current;
      const before = await current.balanceOf(current.owner.id);
      const id = await submitSpecTask(current, model, 10);
      current.clock.advance(10_000);
      await current.gateway.runDueTasks();
      const held = before - (await current.balanceOf(current.owner.id));
      expect(held).toBeGreaterThan(0);

      await current.gateway.close();
      // The poller's lease of the stopped gateway runs out before the new one may take the task.
      current.clock.advance(5 * 60_000);
      const restarted = await current.startInstance();
      const finished = await pollUntilFinished(current, [restarted], id);
      expect(finished.status).toBe('completed');
      expect(before - ((await restarted.running.billing.store.readBalance(current.owner.id)) ?? 0)).toBe(
        pricePerSecondOf(model) * Number(finished.seconds),
      );
      expect(await restarted.running.billing.store.findBalanceMismatches()).toEqual([]);
    },
  );
});

describe.runIf(shouldRunPostgresTests())('two gateways on one PostgreSQL', () => {
  it('poll the same tasks and settle each exactly once', async () => {
    const current = await startVideoEndToEnd({ database: 'postgres' });
    setup = current;
    const second = await current.startInstance();
    const before = await current.balanceOf(current.owner.id);
    const models = ['sora-2', 'sora-2-landscape', 'veo-3.0-generate-001', 'veo-3.0-generate-001-landscape'];
    const ids: Array<{ id: string; model: string }> = [];
    for (const model of models)
      for (const duration of [5, 20]) ids.push({ id: await submitSpecTask(current, model, duration), model });

    let expectedCharge = 0;
    for (const { id, model } of ids) {
      // Both pollers run every round, at the same instant, on the same due tasks.
      const finished = await pollUntilFinished(current, [current.gateway, second], id);
      expect(finished.status).toBe('completed');
      expectedCharge += pricePerSecondOf(model) * Number(finished.seconds);
    }
    // Extra rounds after the end: nothing settles twice.
    for (let round = 0; round < 5; round += 1) {
      current.clock.advance(30_000);
      await Promise.all([current.gateway.runDueTasks(), second.runDueTasks()]);
    }
    expect(before - (await current.balanceOf(current.owner.id))).toBe(expectedCharge);
    for (const { id } of ids) expect((await readSpecTask(second, current.ownerKey, id)).status).toBe('completed');
    expect(await current.gateway.running.billing.store.findBalanceMismatches()).toEqual([]);
    // One settlement usage log per task, whichever gateway settled it.
    await Promise.all([current.gateway.running.billing.writer.flush(), second.running.billing.writer.flush()]);
    const settlements = await current.gateway.running.billing.store.listUsageLogs({
      userId: current.owner.id,
      endpoint: 'videos.settlement',
      limit: 100,
    });
    expect(settlements).toHaveLength(ids.length);
    // `gateway billing verify` on the shared database: balances equal ledgers and every task hold adds up.
    const verified = await current.verifyBilling();
    expect(verified.exitCode, verified.output).toBe(0);
  });
});
