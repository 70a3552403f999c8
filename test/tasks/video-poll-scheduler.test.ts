// The poller's own loop survives a store that fails (PostgreSQL restarting answers claimDue with 57P01/57P03): a
// failed look is logged and the next tick looks again, never an unhandled rejection that would end the process.
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/observability/create-logger.js';
import type { VideoTaskStore } from '../../src/storage/video-task-store.js';
import { defaultVideoTaskSettings, type VideoTaskContext } from '../../src/tasks/video-task-context.js';
import { intervalPollScheduler, VideoTaskPoller } from '../../src/tasks/video-task-poller.js';

/** Resolves once `condition` holds, checking every few milliseconds; rejects after `limitMs` (a bounded wait). */
async function eventually(condition: () => boolean, limitMs = 5_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > limitMs) throw new Error('the condition did not hold in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function terminatingConnection(): Error {
  return Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
}

describe('intervalPollScheduler', () => {
  it('hands a rejected look to onError and keeps looking at the next ticks', async () => {
    let looks = 0;
    const errors: unknown[] = [];
    const schedule = intervalPollScheduler.every(
      1,
      () => {
        looks += 1;
        return Promise.reject(terminatingConnection());
      },
      (error) => errors.push(error),
    );
    try {
      await eventually(() => looks >= 3);
    } finally {
      schedule.stop();
    }
    expect(errors.length).toBeGreaterThanOrEqual(2);
    expect(errors[0]).toMatchObject({ code: '57P01' });
  });

  it('survives work that throws before returning a promise, and an onError that throws', async () => {
    let looks = 0;
    const schedule = intervalPollScheduler.every(
      1,
      () => {
        looks += 1;
        throw new Error('synchronous failure');
      },
      () => {
        throw new Error('the log destination is broken');
      },
    );
    try {
      await eventually(() => looks >= 3);
    } finally {
      schedule.stop();
    }
  });
});

describe('VideoTaskPoller on a store that is down', () => {
  it('logs each failed claim and claims again once the store is back', async () => {
    let storeDown = true;
    let claims = 0;
    const store = {
      claimDue: () => {
        claims += 1;
        return storeDown ? Promise.reject(terminatingConnection()) : Promise.resolve([]);
      },
    } as unknown as VideoTaskStore;
    const logged: string[] = [];
    const logger = createLogger('silent');
    logger.error = ((_fields: unknown, message: string) => void logged.push(message)) as typeof logger.error;
    const context = {
      store,
      clock: Date.now,
      logger,
      settings: { ...defaultVideoTaskSettings, pollIntervalMs: 1 },
    } as unknown as VideoTaskContext;
    const poller = new VideoTaskPoller(context);
    poller.start();
    try {
      await eventually(() => logged.length >= 2);
      expect(logged[0]).toMatch(/video poller look failed/);
      storeDown = false;
      const claimsWhenBack = claims;
      await eventually(() => claims >= claimsWhenBack + 2);
    } finally {
      await poller.stop();
    }
  });
});
