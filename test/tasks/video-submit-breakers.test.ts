// Video submission goes through the failover loop with the breaker gate, like every other upstream call: a channel
// whose breaker is open is not sent the job, and a vendor 5xx fails over to the next channel and counts on its breaker.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { storageTestEngines, type TestDatabase } from '../helpers/storage-test-engines.js';
import { createTaskHarness, type TaskHarness } from './video-task-harness.js';

const engines = storageTestEngines('video-submit-breakers');

for (const engine of engines) {
  describe.runIf(engine.run)(`video submission behind the channel breakers on ${engine.name}`, () => {
    let testDatabase: TestDatabase;
    let harness: TaskHarness;

    beforeEach(async () => {
      testDatabase = await engine.create();
      harness = await createTaskHarness(testDatabase);
      harness.channels.push({
        ...harness.channels[0]!,
        id: 'ch_fallback',
        baseUrl: harness.otherVendor.url,
        priority: 1,
      });
    });

    afterEach(async () => {
      await harness.close();
      await testDatabase.drop();
    });

    const breakers = () => harness.node.context.channelHealth.breakers;

    it('skips the channel whose breaker is open: the job goes to the next one only', async () => {
      const primary = harness.channels[0]!;
      breakers().record(primary, 'sora-test', { kind: 'rate-limited', retryAfter: '600' }, harness.now.value);
      expect(breakers().isAvailable(primary.id, 'sora-test', harness.now.value)).toBe(false);
      const view = await harness.node.service.submit(harness.submission());
      expect(view.state).toBe('queued');
      expect(harness.vendor.requests).toEqual([]);
      expect(harness.otherVendor.requests).toEqual(['POST /videos']);
    });

    it("fails over on a vendor 5xx and counts it on the first channel's breaker until it opens", async () => {
      const primary = harness.channels[0]!;
      harness.vendor.submitFailures.push(500, 500, 500, 500, 500);
      for (let submitted = 0; submitted < 5; submitted++) {
        const view = await harness.node.service.submit(
          harness.submission({ requestId: `req_${submitted}`, requestedSeconds: 4 }),
        );
        expect(view.state).toBe('queued');
      }
      expect(harness.vendor.requests.filter((line) => line === 'POST /videos')).toHaveLength(5);
      expect(harness.otherVendor.requests.filter((line) => line === 'POST /videos')).toHaveLength(5);
      // Five failures in a row (the default trigger; 4 s videos so six fit the balance): the primary is left out of the next submission.
      expect(breakers().isAvailable(primary.id, 'sora-test', harness.now.value)).toBe(false);
      await harness.node.service.submit(harness.submission({ requestId: 'req_after', requestedSeconds: 4 }));
      expect(harness.vendor.requests.filter((line) => line === 'POST /videos')).toHaveLength(5);
    });
  });
}
