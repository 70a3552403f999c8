import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBillingConfig } from '../../src/billing/billing-config.js';
import { BillingRuntime } from '../../src/billing/billing-runtime.js';
import { createLogger } from '../../src/observability/create-logger.js';
import { createBillingStore } from '../../src/storage/kysely-billing-store.js';

describe('billing configuration and startup', () => {
  it('reads the documented defaults and switches', () => {
    const defaults = loadBillingConfig({});
    expect(defaults).toMatchObject({
      enabled: true,
      redisUrl: undefined,
      flushIntervalMs: 250,
      defaultMaxOutputTokens: 4_096,
      usageLogRetentionDays: 90,
    });
    expect(loadBillingConfig({ GATEWAY_BILLING: 'off' }).enabled).toBe(false);
    expect(loadBillingConfig({ GATEWAY_BILLING_FLUSH_INTERVAL_MS: '5000' }).flushIntervalMs).toBe(250);
    expect(loadBillingConfig({ GATEWAY_KEY_REQUESTS_PER_MINUTE: '60' }).keyLimits.requestsPerMinute).toBe(60);
    expect(() => loadBillingConfig({ GATEWAY_BILLING: 'maybe' })).toThrow(/on or off/);
  });

  it('fails to start, without leaving connections open, when Redis is unreachable', async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'billing-startup-'));
    const store = createBillingStore({ databaseUrl: `sqlite:${path.join(folder, 'gateway.db')}` });
    try {
      await store.migrate();
      const config = { ...loadBillingConfig({}), redisUrl: 'redis://127.0.0.1:1' };
      await expect(
        BillingRuntime.start({
          store,
          config,
          logger: createLogger('silent'),
          clock: Date.now,
          revisionCheckIntervalMs: 0,
        }),
      ).rejects.toThrow();
    } finally {
      await store.close();
      await rm(folder, { recursive: true, force: true });
    }
  });
});
