// The readiness probe behind /readyz: one check per second at most however often it is asked, a check that hangs
// counts as down in time, and a store that answers again is up at the next check.
import { describe, expect, it } from 'vitest';
import { StoreReadinessProbe } from '../../src/observability/store-readiness-probe.js';

describe('store readiness probe', () => {
  it('checks each store at most once per maximum age, however many ask at once or in a row', async () => {
    let now = 1_000;
    let checks = 0;
    const probe = new StoreReadinessProbe({
      checks: { database: async () => void checks++ },
      clock: () => now,
      maximumAgeMs: 1_000,
    });
    const reports = await Promise.all(Array.from({ length: 50 }, () => probe.report()));
    for (let asked = 0; asked < 50; asked++) reports.push(await probe.report());
    expect(checks).toBe(1);
    expect(new Set(reports.map((report) => JSON.stringify(report)))).toEqual(
      new Set([JSON.stringify({ ready: true, stores: { database: 'up' } })]),
    );
    now += 1_000;
    await probe.report();
    expect(checks).toBe(2);
  });

  it('reports a store whose check fails or hangs as down, and up again once it answers', async () => {
    let now = 0;
    let redis: 'fails' | 'hangs' | 'answers' = 'fails';
    const probe = new StoreReadinessProbe({
      checks: {
        database: async () => undefined,
        redis: () =>
          redis === 'fails'
            ? Promise.reject(new Error('ECONNREFUSED'))
            : redis === 'hangs'
              ? new Promise<void>(() => undefined)
              : Promise.resolve(),
      },
      clock: () => now,
      checkTimeoutMs: 50,
    });
    expect(await probe.report()).toEqual({ ready: false, stores: { database: 'up', redis: 'down' } });
    now += 1_000;
    redis = 'hangs';
    expect(await probe.report()).toEqual({ ready: false, stores: { database: 'up', redis: 'down' } });
    now += 1_000;
    redis = 'answers';
    expect(await probe.report()).toEqual({ ready: true, stores: { database: 'up', redis: 'up' } });
  });
});
