import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BillingStore } from '../../src/storage/billing-store.js';
import type { UsageLogRecord } from '../../src/storage/billing-records.js';
import type { GatewayStore } from '../../src/storage/gateway-store.js';
import { createBillingStore } from '../../src/storage/kysely-billing-store.js';
import { createGatewayStore } from '../../src/storage/kysely-gateway-store.js';
import { storageTestEngines, type TestDatabase } from '../helpers/storage-test-engines.js';

const engines = storageTestEngines('billing-store');

function usageLog(overrides: Partial<UsageLogRecord>): UsageLogRecord {
  return {
    id: `log_${Math.random().toString(36).slice(2)}`,
    createdAt: Date.UTC(2026, 0, 5, 12),
    userId: 'missing',
    apiKeyId: 'missing',
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
    requestId: null,
    pricing: null,
    ...overrides,
  };
}

for (const engine of engines) {
  describe.runIf(engine.run)(`billing store on ${engine.name}`, () => {
    let database: TestDatabase;
    let gatewayStore: GatewayStore;
    let billingStore: BillingStore;
    let userId: string;
    let apiKeyId: string;

    beforeEach(async () => {
      database = await engine.create();
      gatewayStore = createGatewayStore({ databaseUrl: database.url });
      await gatewayStore.migrate();
      billingStore = createBillingStore({ databaseUrl: database.url });
      await billingStore.migrate();
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
    });

    afterEach(async () => {
      await billingStore.close();
      await gatewayStore.close();
      await database.drop();
    });

    it('writes a credit and its ledger entry together and bumps the billing revision', async () => {
      const revision = await billingStore.readBillingRevision();
      const { balance, entry } = await billingStore.changeBalance({
        userId,
        kind: 'top-up',
        amount: 5_000_000,
        description: 'card',
      });
      expect(balance).toBe(5_000_000);
      expect(entry).toMatchObject({ kind: 'top-up', amount: 5_000_000 });
      expect(await billingStore.readBillingRevision()).toBe(revision + 1);
      expect(await billingStore.findBalanceMismatches()).toEqual([]);
    });

    it('refuses a change that would leave a negative balance, writing nothing', async () => {
      await billingStore.changeBalance({ userId, kind: 'top-up', amount: 100, description: 'card' });
      await expect(
        billingStore.changeBalance({ userId, kind: 'adjustment', amount: -101, description: 'oops' }),
      ).rejects.toThrow(/negative/);
      expect(await billingStore.readBalance(userId)).toBe(100);
      expect(await billingStore.listLedgerEntries(userId, { limit: 10 })).toHaveLength(1);
    });

    it('writes a settlement batch: ledger rows, balance, key spend, usage logs and rollups in one go', async () => {
      await billingStore.changeBalance({ userId, kind: 'top-up', amount: 1_000, description: 'card' });
      await billingStore.writeSettlementBatch({
        charges: [
          { id: 'led_a', userId, apiKeyId, amount: 30, debt: 0, requestId: 'req_a', createdAt: 1 },
          { id: 'led_b', userId, apiKeyId, amount: 12, debt: 0, requestId: 'req_b', createdAt: 2 },
        ],
        usageLogs: [usageLog({ userId, apiKeyId, cost: 30 }), usageLog({ userId, apiKeyId, cost: 12, status: 500 })],
      });
      await billingStore.writeSettlementBatch({ charges: [], usageLogs: [usageLog({ userId, apiKeyId, cost: 0 })] });
      expect(await billingStore.readBalance(userId)).toBe(958);
      expect(await billingStore.findBalanceMismatches()).toEqual([]);
      const snapshot = await billingStore.loadBillingSnapshot();
      expect(snapshot.apiKeys.find((key) => key.apiKeyId === apiKeyId)?.spent).toBe(42);
      const summaries = await billingStore.listUsageSummaries({ userId });
      expect(summaries).toEqual([
        {
          day: '2026-01-05',
          userId,
          apiKeyId,
          model: 'gpt-4o',
          requestCount: 3,
          errorCount: 1,
          promptTokens: 30,
          completionTokens: 60,
          cachedTokens: 0,
          cost: 42,
        },
      ]);
    });

    it('keeps the cache-read and cache-write token counts of a usage log', async () => {
      const log = usageLog({ userId, apiKeyId, promptTokens: 100, cachedTokens: 40, cacheWriteTokens: 25 });
      await billingStore.writeSettlementBatch({ charges: [], usageLogs: [log] });
      expect(await billingStore.listUsageLogs({ userId, limit: 10 })).toEqual([log]);
    });

    it('keeps the pricing a usage log was settled with, and null for a row without one', async () => {
      const pricing = {
        inputPerMillion: 2_500_000,
        cachedInputPerMillion: 1_250_000,
        cacheWritePerMillion: 3_125_000,
        cacheWriteOneHourPerMillion: 5_000_000,
        outputPerMillion: 10_000_000,
        priceRatioMillionths: 1_500_000,
        imageCost: 80_000,
        audioMilliseconds: 61_500,
        audioPerMinute: 6_000,
        videoCost: 300_000,
      };
      const priced = usageLog({ userId, apiKeyId, createdAt: 2, pricing });
      const refused = usageLog({ userId, apiKeyId, createdAt: 1, status: 429, cost: 0 });
      await billingStore.writeSettlementBatch({ charges: [], usageLogs: [priced, refused] });
      expect(await billingStore.listUsageLogs({ userId, limit: 10 })).toEqual([priced, refused]);
    });

    it('reports users whose balance does not equal their ledger', async () => {
      await billingStore.changeBalance({ userId, kind: 'top-up', amount: 10, description: 'card' });
      await billingStore.writeSettlementBatch({
        charges: [{ id: 'led_x', userId, apiKeyId, amount: 7, debt: 0, requestId: 'r', createdAt: 1 }],
        usageLogs: [],
      });
      expect(await billingStore.findBalanceMismatches()).toEqual([]);
      await gatewayStore.close();
      const { createDatabase } = await import('../../src/storage/create-database.js');
      const raw = createDatabase(database.url);
      await raw.database.updateTable('users').set({ balance: 99 }).where('id', '=', userId).execute();
      await raw.database.destroy();
      gatewayStore = createGatewayStore({ databaseUrl: database.url });
      expect(await billingStore.findBalanceMismatches()).toEqual([
        { userId, email: 'ada@example.com', balance: 99, ledgerSum: 3, debt: 0, ledgerDebtSum: 0 },
      ]);
    });

    it('records what a settlement could not cover as debt, and pays it first from the next credit', async () => {
      await billingStore.changeBalance({ userId, kind: 'top-up', amount: 100, description: 'card' });
      const [settled] = await billingStore.writeSettlementBatch({
        charges: [{ id: 'led_debt', userId, apiKeyId, amount: 100, debt: 250, requestId: 'req_debt', createdAt: 1 }],
        usageLogs: [usageLog({ userId, apiKeyId, cost: 350 })],
      });
      expect(settled).toMatchObject({ userId, balance: 0, debt: 250, charged: 100, debtAdded: 250, repaid: 0 });
      expect(await billingStore.readStoredBalance(userId)).toMatchObject({ balance: 0, debt: 250 });
      expect((await billingStore.loadBillingSnapshot()).apiKeys[0]?.spent).toBe(350);
      expect(await billingStore.findBalanceMismatches()).toEqual([]);

      const partial = await billingStore.changeBalance({ userId, kind: 'top-up', amount: 200, description: 'card' });
      expect(partial).toMatchObject({
        balance: 0,
        debt: 50,
        repayment: { kind: 'debt-repayment', amount: -200, debtChange: -200, reference: partial.entry.id },
      });
      const rest = await billingStore.changeBalance({ userId, kind: 'redemption', amount: 80, description: 'code' });
      expect(rest).toMatchObject({ balance: 30, debt: 0, repayment: { amount: -50, debtChange: -50 } });
      const clean = await billingStore.changeBalance({ userId, kind: 'bonus', amount: 5, description: 'gift' });
      expect(clean).toMatchObject({ balance: 35, debt: 0, repayment: undefined });
      const ledger = await billingStore.listLedgerEntries(userId, { limit: 10 });
      expect(ledger.map((entry) => [entry.kind, entry.amount, entry.debtChange])).toEqual(
        expect.arrayContaining([
          ['top-up', 100, 0],
          ['settlement', -100, 250],
          ['top-up', 200, 0],
          ['debt-repayment', -200, -200],
          ['redemption', 80, 0],
          ['debt-repayment', -50, -50],
          ['bonus', 5, 0],
        ]),
      );
      expect(ledger).toHaveLength(7);
      expect(await billingStore.findBalanceMismatches()).toEqual([]);
    });

    it('pays a debt from the balance in the batch that writes it (a credit arrived before the debt was written)', async () => {
      await billingStore.changeBalance({ userId, kind: 'top-up', amount: 500, description: 'card' });
      const [settled] = await billingStore.writeSettlementBatch({
        charges: [{ id: 'led_late', userId, apiKeyId, amount: 0, debt: 120, requestId: 'req_late', createdAt: 1 }],
        usageLogs: [],
      });
      expect(settled).toMatchObject({ balance: 380, debt: 0, charged: 0, debtAdded: 120, repaid: 120 });
      expect(await billingStore.findBalanceMismatches()).toEqual([]);
    });

    it('reports a debt that differs from the sum of its ledger', async () => {
      await billingStore.writeSettlementBatch({
        charges: [{ id: 'led_owed', userId, apiKeyId, amount: 0, debt: 9, requestId: 'r', createdAt: 1 }],
        usageLogs: [],
      });
      expect(await billingStore.findBalanceMismatches()).toEqual([]);
      const { createDatabase } = await import('../../src/storage/create-database.js');
      const raw = createDatabase(database.url);
      await raw.database.updateTable('users').set({ debt: 0 }).where('id', '=', userId).execute();
      await raw.database.destroy();
      expect(await billingStore.findBalanceMismatches()).toEqual([
        { userId, email: 'ada@example.com', balance: 0, ledgerSum: 0, debt: 0, ledgerDebtSum: 9 },
      ]);
    });

    it('writes a retried batch once: rows already stored change nothing again, and still report what is durable', async () => {
      await billingStore.changeBalance({ userId, kind: 'top-up', amount: 1_000, description: 'card' });
      const batch = {
        charges: [{ id: 'led_once', userId, apiKeyId, amount: 30, debt: 0, requestId: 'log_once', createdAt: 1 }],
        usageLogs: [usageLog({ id: 'log_once', userId, apiKeyId, cost: 30 })],
      };
      await billingStore.writeSettlementBatch(batch);
      const retried = await billingStore.writeSettlementBatch({
        charges: [
          ...batch.charges,
          { id: 'led_new', userId, apiKeyId, amount: 5, debt: 0, requestId: 'log_new', createdAt: 2 },
        ],
        usageLogs: [...batch.usageLogs, usageLog({ id: 'log_new', userId, apiKeyId, cost: 5 })],
      });
      expect(retried).toEqual([
        expect.objectContaining({ userId, balance: 965, charged: 35, debtAdded: 0, repaid: 0 }),
      ]);
      expect(await billingStore.readBalance(userId)).toBe(965);
      expect((await billingStore.loadBillingSnapshot()).apiKeys[0]?.spent).toBe(35);
      expect((await billingStore.listUsageLogs({ userId, limit: 10 })).map((log) => log.id).sort()).toEqual([
        'log_new',
        'log_once',
      ]);
      expect((await billingStore.listUsageSummaries({ userId }))[0]).toMatchObject({ requestCount: 2, cost: 35 });
      expect(await billingStore.listLedgerEntries(userId, { limit: 10 })).toHaveLength(3);
      expect(await billingStore.findBalanceMismatches()).toEqual([]);
    });

    it('pages usage logs newest first with filters', async () => {
      const logs = [1, 2, 3, 4, 5].map((index) =>
        usageLog({ id: `log_${index}`, userId, apiKeyId, createdAt: 1_000 + index, model: index % 2 ? 'a' : 'b' }),
      );
      await billingStore.writeSettlementBatch({ charges: [], usageLogs: logs });
      const first = await billingStore.listUsageLogs({ userId, limit: 2 });
      expect(first.map((log) => log.id)).toEqual(['log_5', 'log_4']);
      const last = first.at(-1)!;
      const second = await billingStore.listUsageLogs({
        userId,
        limit: 2,
        before: { createdAt: last.createdAt, id: last.id },
      });
      expect(second.map((log) => log.id)).toEqual(['log_3', 'log_2']);
      expect((await billingStore.listUsageLogs({ userId, limit: 10, model: 'b' })).map((log) => log.id)).toEqual([
        'log_4',
        'log_2',
      ]);
      expect(await billingStore.listUsageLogs({ userId: 'someone-else', limit: 10 })).toEqual([]);
      expect(await billingStore.deleteUsageLogsBefore(1_003)).toBe(2);
    });

    it('finds usage logs by request id, endpoint and status class', async () => {
      await billingStore.writeSettlementBatch({
        charges: [],
        usageLogs: [
          usageLog({ id: 'log_ok', userId, apiKeyId, createdAt: 1_001, requestId: 'req_ok' }),
          usageLog({
            id: 'log_throttled',
            userId,
            apiKeyId,
            createdAt: 1_002,
            status: 429,
            requestId: 'req_throttled',
          }),
          usageLog({
            id: 'log_failed',
            userId,
            apiKeyId,
            createdAt: 1_003,
            status: 503,
            endpoint: 'embeddings',
            requestId: 'req_failed',
          }),
        ],
      });
      const ids = async (filter: Parameters<BillingStore['listUsageLogs']>[0]) =>
        (await billingStore.listUsageLogs(filter)).map((log) => log.id);
      expect(await ids({ requestId: 'req_throttled', limit: 10 })).toEqual(['log_throttled']);
      expect((await billingStore.listUsageLogs({ requestId: 'req_ok', limit: 10 }))[0]?.requestId).toBe('req_ok');
      expect(await ids({ statusClass: 4, limit: 10 })).toEqual(['log_throttled']);
      expect(await ids({ statusClass: 2, limit: 10 })).toEqual(['log_ok']);
      expect(await ids({ endpoint: 'embeddings', limit: 10 })).toEqual(['log_failed']);
      expect(await ids({ endpoint: 'chat.completions', statusClass: 5, limit: 10 })).toEqual([]);
    });

    it("writes hourly rollups that match the logs, once per log, and moves the key's last use forward only", async () => {
      const hour = Date.UTC(2026, 0, 5, 12);
      const logs = [
        usageLog({
          id: 'log_h1',
          userId,
          apiKeyId,
          createdAt: hour + 1_000,
          cost: 7,
          promptTokens: 3,
          completionTokens: 4,
        }),
        usageLog({ id: 'log_h2', userId, apiKeyId, createdAt: hour + 3_599_999, cost: 5, status: 500 }),
        usageLog({ id: 'log_h3', userId, apiKeyId, createdAt: hour + 3_600_000, cost: 1, model: 'gpt-4o-mini' }),
      ];
      await billingStore.writeSettlementBatch({ charges: [], usageLogs: logs });
      // A retried batch (already stored) adds nothing; an older request written later does not move last use back.
      await billingStore.writeSettlementBatch({ charges: [], usageLogs: logs });
      await billingStore.writeSettlementBatch({
        charges: [],
        usageLogs: [usageLog({ id: 'log_old', userId, apiKeyId, createdAt: hour - 10, cost: 2 })],
      });
      const hourly = await billingStore.listHourlyUsage({ userId, from: hour, to: hour + 7_200_000 });
      expect(hourly).toEqual([
        {
          hour,
          userId,
          apiKeyId,
          model: 'gpt-4o',
          requestCount: 2,
          errorCount: 1,
          promptTokens: 13,
          completionTokens: 24,
          cachedTokens: 0,
          cost: 12,
        },
        {
          hour: hour + 3_600_000,
          userId,
          apiKeyId,
          model: 'gpt-4o-mini',
          requestCount: 1,
          errorCount: 0,
          promptTokens: 10,
          completionTokens: 20,
          cachedTokens: 0,
          cost: 1,
        },
      ]);
      expect(await billingStore.listHourlyUsage({ userId, from: hour - 3_600_000, to: hour })).toEqual([
        expect.objectContaining({ hour: hour - 3_600_000, requestCount: 1, cost: 2 }),
      ]);
      expect(await billingStore.listApiKeyLastUsedTimes({ userId })).toEqual(new Map([[apiKeyId, hour + 3_600_000]]));
      expect(await billingStore.listApiKeyLastUsedTimes({ userId: 'someone-else' })).toEqual(new Map());
      // Retention removes hourly rollups with the logs (whole hours before the cut), and keeps the daily ones.
      await billingStore.deleteUsageLogsBefore(hour + 3_600_000 * 2);
      expect(await billingStore.listHourlyUsage({ userId, from: 0, to: hour + 7_200_000 })).toEqual([
        expect.objectContaining({ hour: hour + 3_600_000 }),
      ]);
      expect(await billingStore.listUsageSummaries({ userId })).not.toEqual([]);
    });

    it('stores prices, group ratios, key settings and sessions', async () => {
      const price = {
        modelId: 'gpt-4o',
        inputPerMillion: 1,
        cachedInputPerMillion: 2,
        cacheWritePerMillion: 3,
        outputPerMillion: 4,
        imagePrices: { default: 5 },
        audioPerMinute: 6,
        videoPerSecond: 7,
      };
      await billingStore.setModelPrice(price);
      await billingStore.setModelPrice({ ...price, outputPerMillion: 40 });
      expect(await billingStore.listModelPrices()).toEqual([{ ...price, outputPerMillion: 40 }]);
      const group = await gatewayStore.findModelGroupByName('default');
      await billingStore.setGroupPriceRatio(group!.id, 1_500_000);
      const limits = { requestsPerMinute: 5, tokensPerMinute: null, maxConcurrentRequests: 2 };
      await billingStore.setApiKeyBilling(apiKeyId, { spendingCap: 1000, allowedIps: ['10.0.0.0/8'], limits });
      const snapshot = await billingStore.loadBillingSnapshot();
      expect(snapshot.groupPriceRatios).toEqual([{ groupId: group!.id, priceRatioMillionths: 1_500_000 }]);
      expect(snapshot.apiKeys[0]).toEqual({
        apiKeyId,
        spendingCap: 1000,
        spent: 0,
        allowedIps: ['10.0.0.0/8'],
        limits,
      });
    });
  });
}
