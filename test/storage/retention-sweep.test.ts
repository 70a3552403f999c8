import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadBillingConfig } from '../../src/billing/billing-config.js';
import { BillingRuntime } from '../../src/billing/billing-runtime.js';
import { sweepExpiredRows, type RetentionSweepOptions } from '../../src/billing/sweep-expired-rows.js';
import type { RefusedRequestCount, UsageLogRecord } from '../../src/storage/billing-records.js';
import type { BillingStore } from '../../src/storage/billing-store.js';
import { createDatabase, type CreatedDatabase } from '../../src/storage/create-database.js';
import { createBillingStore } from '../../src/storage/kysely-billing-store.js';
import { createGatewayStore } from '../../src/storage/kysely-gateway-store.js';
import { createRequestBodyStore } from '../../src/storage/kysely-request-body-store.js';
import type { RequestBodyRecord, RequestBodyStore } from '../../src/storage/request-body-store.js';
import { storageTestEngines, type TestDatabase } from '../helpers/storage-test-engines.js';

const engines = storageTestEngines('retention-sweep');
const day = 86_400_000;
const hour = 3_600_000;
const now = Date.UTC(2026, 5, 1, 12);
/** 100 days ago: well past a 90-day retention */
const old = now - 100 * day;
const recent = now - day;

function usageLog(id: string, createdAt: number, userId: string, apiKeyId: string): UsageLogRecord {
  return {
    id,
    createdAt,
    userId,
    apiKeyId,
    model: 'gpt-4o',
    channelId: null,
    endpoint: 'chat.completions',
    promptTokens: 10,
    completionTokens: 20,
    cachedTokens: 0,
    cacheWriteTokens: 0,
    cacheWriteOneHourTokens: 0,
    cost: 5,
    status: 200,
    errorCode: null,
    latencyMs: 12,
    firstTokenMs: 3,
    streamed: false,
    clientIp: '127.0.0.1',
    requestId: `req_${id}`,
    pricing: null,
  };
}

function bodyRecord(requestId: string, createdAt: number): RequestBodyRecord {
  return {
    requestId,
    createdAt,
    userId: 'u',
    apiKeyId: 'k',
    endpoint: 'chat.completions',
    status: 200,
    requestBody: '{"model":"m"}',
    requestBytes: 13,
    requestTruncated: false,
    responseBody: '{"id":"x"}',
    responseBytes: 10,
    responseTruncated: false,
  };
}

for (const engine of engines) {
  describe.runIf(engine.run)(`retention in batches on ${engine.name}`, () => {
    let testDatabase: TestDatabase;
    let opened: CreatedDatabase;
    let store: BillingStore;
    let bodies: RequestBodyStore;
    let userId: string;
    let apiKeyId: string;
    let pauses: number;

    const sweep = (overrides: Partial<RetentionSweepOptions> = {}) =>
      sweepExpiredRows({
        billingStore: store,
        requestBodies: bodies,
        now,
        usageLogRetentionDays: 90,
        requestBodyRetentionDays: 7,
        batchRows: 4,
        maxRowsPerRun: 1_000,
        pause: async () => {
          pauses += 1;
        },
        ...overrides,
      });

    beforeEach(async () => {
      pauses = 0;
      testDatabase = await engine.create();
      opened = createDatabase(testDatabase.url);
      const gatewayStore = createGatewayStore({ database: opened });
      await gatewayStore.migrate();
      store = createBillingStore({ database: opened });
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
      bodies = createRequestBodyStore(opened);
      // 25 old requests, each in its own hour (so 25 old hourly rollups), and 5 recent ones; 9 old refused minutes, 2 recent.
      const logs = [
        ...Array.from({ length: 25 }, (_, index) => usageLog(`old_${index}`, old + index * hour, userId, apiKeyId)),
        ...Array.from({ length: 5 }, (_, index) => usageLog(`new_${index}`, recent + index * 1_000, userId, apiKeyId)),
      ];
      const refusal = (minute: number): RefusedRequestCount => ({
        minute,
        userId,
        apiKeyId,
        model: 'gpt-4o',
        status: 429,
        errorCode: 'rate_limit_exceeded',
        count: 3,
      });
      await store.writeSettlementBatch({
        charges: [],
        usageLogs: logs,
        refusedCounts: [
          ...Array.from({ length: 9 }, (_, index) => refusal(old + index * 60_000)),
          refusal(recent),
          refusal(recent + 60_000),
        ],
      });
      await bodies.writeRequestBodies([
        ...Array.from({ length: 6 }, (_, index) => bodyRecord(`req_old_${index}`, now - 8 * day + index)),
        bodyRecord('req_new', now - day),
      ]);
    });

    afterEach(async () => {
      await opened.database.destroy();
      await testDatabase.drop();
    });

    it('deletes rows beyond the cutoff in several short batches and keeps the daily rollups', async () => {
      const dailyBefore = await store.listUsageSummaries({ userId });
      const result = await sweep();
      expect(result.deleted).toEqual({
        usage_logs: 25,
        refused_request_counts: 9,
        usage_hourly_rollups: 25,
        request_bodies: 6,
      });
      expect(result.complete).toBe(true);
      // 25 logs in batches of 4 take 7 statements, 9 counts 3, 25 hourly rollups 7, 6 bodies 2.
      expect(result.batches).toBe(19);
      expect(pauses).toBe(15);
      const logs = await store.listUsageLogs({ userId, limit: 100 });
      expect(logs.map((log) => log.id).sort()).toEqual(['new_0', 'new_1', 'new_2', 'new_3', 'new_4']);
      expect(await store.listRefusedRequestCounts({ userId, from: 0, to: now })).toHaveLength(2);
      expect(await store.listHourlyUsage({ userId, from: 0, to: now })).toEqual([
        expect.objectContaining({ hour: recent, requestCount: 5 + 6 }),
      ]);
      // Daily rollups (what the console's long ranges and the ledger views read) are kept whole, old days included.
      expect(await store.listUsageSummaries({ userId })).toEqual(dailyBefore);
      expect(dailyBefore.map((row) => row.day)).toContain(new Date(old).toISOString().slice(0, 10));
      expect(await bodies.findRequestBody('req_old_0')).toBeUndefined();
      expect(await bodies.findRequestBody('req_new')).toEqual(bodyRecord('req_new', now - day));
      // Nothing left to do: the next sweep deletes nothing in one statement per table.
      expect((await sweep()).batches).toBe(4);
    });

    it('stops at the per-run bound and goes on from there in the next sweep', async () => {
      const first = await sweep({ maxRowsPerRun: 10 });
      expect(first.complete).toBe(false);
      expect(first.deleted.usage_logs).toBe(10);
      // The oldest go first.
      const left = await store.listUsageLogs({ userId, limit: 100 });
      expect(left).toHaveLength(20);
      expect(Math.min(...left.map((log) => log.createdAt))).toBe(old + 10 * hour);
      const second = await sweep({ maxRowsPerRun: 10 });
      expect(second.deleted.usage_logs).toBe(10);
      const third = await sweep({ maxRowsPerRun: 10 });
      expect(third).toMatchObject({ complete: true, deleted: { usage_logs: 5 } });
      expect(await store.listUsageLogs({ userId, limit: 100 })).toHaveLength(5);
    });

    it('lets two nodes sweep the same database at once without errors or double counting', async () => {
      const otherNode = createDatabase(testDatabase.url);
      try {
        const otherStore = createBillingStore({ database: otherNode });
        const [mine, theirs] = await Promise.all([
          sweep({ batchRows: 2 }),
          sweep({ batchRows: 2, billingStore: otherStore, requestBodies: createRequestBodyStore(otherNode) }),
        ]);
        expect(mine.deleted.usage_logs + theirs.deleted.usage_logs).toBe(25);
        expect(mine.deleted.usage_hourly_rollups + theirs.deleted.usage_hourly_rollups).toBe(25);
        expect(mine.deleted.refused_request_counts + theirs.deleted.refused_request_counts).toBe(9);
        expect(mine.deleted.request_bodies + theirs.deleted.request_bodies).toBe(6);
        expect(await store.listUsageLogs({ userId, limit: 100 })).toHaveLength(5);
      } finally {
        await otherNode.database.destroy();
      }
    });

    it('runs from the billing runtime with the configured batch size and logs what went', async () => {
      const lines: Array<Record<string, unknown>> = [];
      const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
      const runtime = await BillingRuntime.start({
        store,
        config: { ...loadBillingConfig({}), retentionBatchRows: 10 },
        logger,
        clock: () => now,
        revisionCheckIntervalMs: 0,
        requestBodies: bodies,
        retentionPauseMs: 0,
      });
      try {
        const result = await runtime.sweepRetention();
        expect(result.deleted).toEqual({
          usage_logs: 25,
          refused_request_counts: 9,
          usage_hourly_rollups: 25,
          request_bodies: 6,
        });
        expect(result.batches).toBe(3 + 1 + 3 + 1);
        expect(lines.find((line) => line.msg === 'retention sweep deleted expired rows')).toMatchObject({
          deleted: result.deleted,
          batches: 8,
          complete: true,
        });
      } finally {
        await runtime.close();
      }
    });

    it('lets settlement batches be written between its batches', async () => {
      let written = 0;
      const result = await sweep({
        pause: async () => {
          written += 1;
          await store.writeSettlementBatch({
            charges: [],
            usageLogs: [usageLog(`during_${written}`, now - 1_000 + written, userId, apiKeyId)],
          });
        },
      });
      expect(written).toBeGreaterThan(5);
      expect(result.deleted.usage_logs).toBe(25);
      expect(await store.listUsageLogs({ userId, limit: 100 })).toHaveLength(5 + written);
    });

    it('keeps everything when both retentions are 0 (forever)', async () => {
      const result = await sweep({ usageLogRetentionDays: 0, requestBodyRetentionDays: 0 });
      expect(result.batches).toBe(0);
      expect(await store.listUsageLogs({ userId, limit: 100 })).toHaveLength(30);
    });

    it('still deletes everything expired when done all at once (deleteUsageLogsBefore, back-to-back batches)', async () => {
      expect(await store.deleteUsageLogsBefore(now - 90 * day)).toBe(25);
      expect(await store.listUsageLogs({ userId, limit: 100 })).toHaveLength(5);
    });
  });
}
