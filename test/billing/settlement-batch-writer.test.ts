// The settlement batch writer on real stores: a retried batch is never written twice, a row that cannot be
// written is isolated and kept (never dropped, never holding back the rest), and the queue is bounded.
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  rowsPerTransaction,
  SettlementBatchWriter,
  type RequestCharge,
} from '../../src/billing/settlement-batch-writer.js';
import type { UsageLogRecord } from '../../src/storage/billing-records.js';
import type { BillingStore } from '../../src/storage/billing-store.js';
import { createBillingStore } from '../../src/storage/kysely-billing-store.js';
import { createGatewayStore } from '../../src/storage/kysely-gateway-store.js';
import { StoreUnavailableError } from '../../src/storage/store-unavailable-error.js';
import { storageTestEngines, type TestDatabase } from '../helpers/storage-test-engines.js';

const engines = storageTestEngines('batch-writer');

let counter = 0;

for (const engine of engines) {
  describe.runIf(engine.run)(`settlement batch writer on ${engine.name}`, () => {
    let database: TestDatabase;
    let store: BillingStore;
    let userId: string;
    let apiKeyId: string;
    let now: number;

    beforeEach(async () => {
      database = await engine.create();
      const gatewayStore = createGatewayStore({ databaseUrl: database.url });
      await gatewayStore.migrate();
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
        keyHash: 'b'.repeat(64),
        keyPrefix: 'sk-gw-bbbb',
        expiresAt: null,
      });
      await gatewayStore.close();
      userId = user.id;
      apiKeyId = key.id;
      store = createBillingStore({ databaseUrl: database.url });
      await store.migrate();
      await store.changeBalance({ userId, kind: 'top-up', amount: 1_000, description: 'card' });
      now = Date.UTC(2026, 0, 5, 12);
    });

    afterEach(async () => {
      await store.close();
      await database.drop();
    });

    /** One settled request: its usage log and, for a cost above 0, its charge. */
    function settledRequest(
      cost: number,
      overrides: Partial<UsageLogRecord> = {},
    ): { charge: RequestCharge; usageLog: UsageLogRecord } {
      const id = `use_test${++counter}`;
      const usageLog: UsageLogRecord = {
        id,
        createdAt: now,
        userId,
        apiKeyId,
        model: 'm',
        channelId: null,
        endpoint: 'chat.completions',
        promptTokens: 1,
        completionTokens: 1,
        cachedTokens: 0,
        cacheWriteTokens: 0,
        cost,
        status: 200,
        errorCode: null,
        latencyMs: 1,
        firstTokenMs: null,
        streamed: false,
        clientIp: '127.0.0.1',
        requestId: null,
        pricing: null,
        ...overrides,
      };
      return {
        charge: { amount: cost, debt: 0 },
        usageLog,
      };
    }

    function createWriter(writeStore: BillingStore, logger = pino({ level: 'silent' })): SettlementBatchWriter {
      return new SettlementBatchWriter({ store: writeStore, intervalMs: 250, logger, clock: () => now });
    }

    async function storedState() {
      const snapshot = await store.loadBillingSnapshot();
      return {
        balance: await store.readBalance(userId),
        spent: snapshot.apiKeys.find((key) => key.apiKeyId === apiKeyId)?.spent,
        logs: (await store.listUsageLogs({ userId, limit: 100 })).length,
        ledgerRows: (await store.listLedgerEntries(userId, { limit: 100 })).length,
        requestsInRollups: (await store.listUsageSummaries({ userId })).reduce(
          (total, summary) => total + summary.requestCount,
          0,
        ),
        mismatches: await store.findBalanceMismatches(),
      };
    }

    it("writes a queued request's ledger row from its usage log: its id, user, amount, debt and finish time", async () => {
      const writer = createWriter(store);
      const { usageLog } = settledRequest(500, { latencyMs: 7 });
      writer.enqueue(usageLog, { amount: 300, debt: 200 });
      expect(writer.pendingAmounts().byUser.get(userId)).toBe(300);
      expect(writer.pendingAmounts().byKey.get(apiKeyId)).toBe(500);
      await writer.flush();
      // The user's balance pays the debt at once (a debt-repayment entry); the settlement is the request's own row.
      const entries = await store.listLedgerEntries(userId, { limit: 10 });
      const entry = entries.find((candidate) => candidate.kind === 'settlement');
      expect(entry).toMatchObject({
        id: `led_${usageLog.id.slice('use_'.length)}`,
        kind: 'settlement',
        amount: -300,
        debtChange: 200,
        reference: usageLog.id,
        createdAt: now + 7,
      });
      expect(writer.pendingAmounts().byUser.size).toBe(0);
      expect(writer.pendingAmounts().debtByUser.size).toBe(0);
      expect((await storedState()).mismatches).toEqual([]);
    });

    it('does not write twice a batch whose commit succeeded but reported an error', async () => {
      let failAfterCommit = true;
      const flaky: BillingStore = {
        ...store,
        async writeSettlementBatch(batch) {
          const settled = await store.writeSettlementBatch(batch);
          if (failAfterCommit) {
            failAfterCommit = false;
            throw new Error('connection reset after COMMIT');
          }
          return settled;
        },
      };
      const writer = createWriter(flaky);
      for (const cost of [10, 20, 30]) {
        const { charge, usageLog } = settledRequest(cost);
        writer.enqueue(usageLog, charge);
      }
      await writer.flush();
      expect(writer.queuedRows).toBe(3);
      expect(writer.pendingAmounts().byUser.get(userId)).toBe(60);
      now += 1_000; // past the pause after a flush that wrote nothing
      await writer.flush();
      expect(writer.queuedRows).toBe(0);
      expect(writer.pendingAmounts().byUser.size).toBe(0);
      expect(await storedState()).toEqual({
        balance: 940,
        spent: 60,
        logs: 3,
        ledgerRows: 4,
        requestsInRollups: 3,
        mismatches: [],
      });
    });

    it('keeps every row while the database is down (no split, no row backoff) and writes each once when it is back', async () => {
      let down = true;
      let attempts = 0;
      const outage: BillingStore = {
        ...store,
        async writeSettlementBatch(batch) {
          attempts++;
          if (down)
            throw new StoreUnavailableError(
              'database',
              Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
            );
          return store.writeSettlementBatch(batch);
        },
      };
      const writer = createWriter(outage);
      for (const cost of [10, 20, 30, 40, 50]) {
        const { charge, usageLog } = settledRequest(cost);
        writer.enqueue(usageLog, charge);
      }
      for (let flush = 0; flush < 4; flush++) {
        await writer.flush();
        now += 10_000; // past any pause
      }
      // One attempt per flush: a database that is down is not a row at fault, so the batch is never split.
      expect(attempts).toBe(4);
      expect(writer.queuedRows).toBe(5);
      expect(writer.pendingAmounts().byUser.get(userId)).toBe(150);
      down = false;
      await writer.flush();
      expect(writer.unwrittenRows).toBe(0);
      expect(await storedState()).toEqual({
        balance: 850,
        spent: 150,
        logs: 5,
        ledgerRows: 6,
        requestsInRollups: 5,
        mismatches: [],
      });
    });

    it('counts the rows of the batch being written as unwritten until they are durable', async () => {
      let openGate!: () => void;
      const gate = new Promise<void>((resolve) => {
        openGate = resolve;
      });
      const slow: BillingStore = {
        ...store,
        async writeSettlementBatch(batch) {
          await gate;
          return store.writeSettlementBatch(batch);
        },
      };
      const writer = createWriter(slow);
      for (const cost of [10, 20]) {
        const { charge, usageLog } = settledRequest(cost);
        writer.enqueue(usageLog, charge);
      }
      expect(writer.unwrittenRows).toBe(2);
      const flushing = writer.flush();
      await vi.waitFor(() => expect(writer.queuedRows).toBe(0));
      expect(writer.unwrittenRows).toBe(2);
      openGate();
      await flushing;
      expect(writer.unwrittenRows).toBe(0);
      expect((await storedState()).logs).toBe(2);
    });

    it('writes rows as soon as they fill a transaction, without waiting for the timer', async () => {
      const writer = new SettlementBatchWriter({
        store,
        intervalMs: 60_000,
        logger: pino({ level: 'silent' }),
        clock: () => now,
      });
      writer.start();
      try {
        for (let index = 1; index < rowsPerTransaction; index++) {
          const { charge, usageLog } = settledRequest(1);
          writer.enqueue(usageLog, charge);
        }
        // One row short of a transaction, the rows wait for the timer.
        expect(writer.queuedRows).toBe(rowsPerTransaction - 1);
        const { charge, usageLog } = settledRequest(1);
        writer.enqueue(usageLog, charge);
        await vi.waitFor(() => expect(writer.unwrittenRows).toBe(0), { timeout: 10_000 });
        const state = await storedState();
        expect({ balance: state.balance, requestsInRollups: state.requestsInRollups }).toEqual({
          balance: 1_000 - rowsPerTransaction,
          requestsInRollups: rowsPerTransaction,
        });
      } finally {
        await writer.close();
      }
    });

    it('writes a long queue in transactions of at most rowsPerTransaction rows', async () => {
      const batchSizes: number[] = [];
      const recording: BillingStore = {
        ...store,
        writeSettlementBatch(batch) {
          batchSizes.push(batch.usageLogs.length);
          return store.writeSettlementBatch(batch);
        },
      };
      const writer = createWriter(recording);
      const rows = 2 * rowsPerTransaction + 10;
      for (let index = 0; index < rows; index++) {
        const { charge, usageLog } = settledRequest(1);
        writer.enqueue(usageLog, charge);
      }
      await writer.flush();
      expect(batchSizes.toSorted((left, right) => left - right)).toEqual([10, rowsPerTransaction, rowsPerTransaction]);
      expect(writer.unwrittenRows).toBe(0);
      const state = await storedState();
      expect({
        balance: state.balance,
        requestsInRollups: state.requestsInRollups,
        mismatches: state.mismatches,
      }).toEqual({ balance: 1_000 - rows, requestsInRollups: rows, mismatches: [] });
    });

    it('isolates a row that cannot be written: the others are written, it stays queued with backoff and is logged', async () => {
      const logger = pino({ level: 'silent' });
      const logged = vi.spyOn(logger, 'error');
      const writer = createWriter(store, logger);
      const rows = [settledRequest(1), settledRequest(2), settledRequest(3), settledRequest(4), settledRequest(5)];
      // A NOT NULL column left empty: the database refuses this row whatever the batch around it.
      const poison = settledRequest(100, { clientIp: null as unknown as string });
      for (const row of [...rows.slice(0, 2), poison, ...rows.slice(2)]) writer.enqueue(row.usageLog, row.charge);

      await writer.flush(); // the whole batch fails once: maybe a passing error, retried whole
      expect(writer.queuedRows).toBe(6);
      now += 1_000;
      await writer.flush(); // fails again: split until the poison row is alone
      expect(writer.queuedRows).toBe(1);
      expect((await storedState()).balance).toBe(1_000 - 15);
      expect(logged).toHaveBeenCalledWith(
        expect.objectContaining({ usageLogId: poison.usageLog.id, failures: 2 }),
        expect.stringMatching(/cannot be written/),
      );

      // Later batches are not held back, and the poison row waits for its backoff.
      const later = settledRequest(7);
      writer.enqueue(later.usageLog, later.charge);
      await writer.flush();
      expect(writer.queuedRows).toBe(1);
      expect((await storedState()).balance).toBe(1_000 - 22);

      // Retried after its backoff, still failing: kept, never dropped; its charge still counts as pending.
      now += 60_000;
      await writer.flush();
      expect(writer.queuedRows).toBe(1);
      expect(logged).toHaveBeenLastCalledWith(
        expect.objectContaining({ usageLogId: poison.usageLog.id, failures: 3 }),
        expect.any(String),
      );
      expect(writer.pendingAmounts().byUser.get(userId)).toBe(100);
      expect(await storedState()).toMatchObject({ logs: 6, ledgerRows: 7, requestsInRollups: 6, mismatches: [] });
    });

    it('reports a full queue and counts no refused requests while it is full', async () => {
      const writer = new SettlementBatchWriter({
        store,
        intervalMs: 250,
        logger: pino({ level: 'silent' }),
        clock: () => now,
        queueLimit: 2,
      });
      const refusal = { receivedAt: now, userId, apiKeyId, model: 'm', status: 429, errorCode: 'insufficient_quota' };
      const first = settledRequest(1);
      writer.enqueue(first.usageLog, first.charge);
      expect(writer.countRefusal(refusal)).toBe(true);
      const second = settledRequest(1);
      writer.enqueue(second.usageLog, second.charge);
      expect(writer.isFull()).toBe(true);
      expect(writer.countRefusal(refusal)).toBe(false);
      // A settled request is always kept: its money was already taken.
      const settled = settledRequest(2);
      writer.enqueue(settled.usageLog, settled.charge);
      expect(writer.queuedRows).toBe(3);
      expect(writer.retryAfterSeconds()).toBeGreaterThanOrEqual(1);
      await writer.flush();
      expect(writer.isFull()).toBe(false);
      expect(await store.listRefusedRequestCounts({ userId, from: 0, to: now + 60_000 })).toEqual([
        expect.objectContaining({ status: 429, errorCode: 'insufficient_quota', count: 1 }),
      ]);
    });
  });
}
