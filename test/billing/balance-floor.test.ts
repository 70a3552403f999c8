// The floor under every balance: no write leaves `users.balance` below zero. A charge the stored balance cannot cover
// (other nodes' unwritten charges, or a debt repayment, already spent it) becomes debt in the same transaction, with a
// `debt-from-shortfall` ledger entry, so balance = Σ amount and debt = Σ debt_change keep holding and nothing is forgiven.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SettledCharge } from '../../src/storage/billing-records.js';
import type { BillingStore } from '../../src/storage/billing-store.js';
import { createBillingStore } from '../../src/storage/kysely-billing-store.js';
import { openBillingStoreWithKey } from '../helpers/open-billing-store-with-key.js';
import { storageTestEngines, type TestDatabase } from '../helpers/storage-test-engines.js';

const engines = storageTestEngines('balance-floor');

let chargeCounter = 0;

function charge(userId: string, apiKeyId: string, amount: number, debt = 0): SettledCharge {
  chargeCounter += 1;
  return {
    id: `led_floor_${chargeCounter}`,
    userId,
    apiKeyId,
    amount,
    debt,
    requestId: `req_floor_${chargeCounter}`,
    createdAt: 1,
  };
}

for (const engine of engines) {
  describe.runIf(engine.run)(`the balance floor on ${engine.name}`, () => {
    let database: TestDatabase;
    let billingStore: BillingStore;
    let userId: string;
    let apiKeyId: string;

    beforeEach(async () => {
      database = await engine.create();
      ({ billingStore, userId, apiKeyId } = await openBillingStoreWithKey(database, 'floor'));
    });

    afterEach(async () => {
      await billingStore.close();
      await database.drop();
    });

    it('turns a charge the stored balance cannot cover into debt in the same batch, never a negative balance', async () => {
      await billingStore.changeBalance({ userId, kind: 'top-up', amount: 100, description: 'card' });
      // The node's view still had 300 (another node's charges were not written yet), so it charged 300 in full.
      const first = charge(userId, apiKeyId, 300);
      const [settled] = await billingStore.writeSettlementBatch({ charges: [first], usageLogs: [] });
      expect(settled).toMatchObject({ userId, balance: 0, debt: 200, charged: 300, debtAdded: 0, repaid: -200 });
      expect(await billingStore.readStoredBalance(userId)).toMatchObject({ balance: 0, debt: 200 });
      const ledger = await billingStore.listLedgerEntries(userId, { limit: 10 });
      expect(ledger.map((entry) => [entry.kind, entry.amount, entry.debtChange])).toEqual(
        expect.arrayContaining([
          ['top-up', 100, 0],
          ['settlement', -300, 0],
          ['debt-from-shortfall', 200, 200],
        ]),
      );
      expect(ledger.find((entry) => entry.kind === 'debt-from-shortfall')?.reference).toBe(first.requestId);
      expect(ledger).toHaveLength(3);
      // The key's spend is the whole cost; the next credit pays the debt first.
      expect((await billingStore.loadBillingSnapshot()).apiKeys[0]?.spent).toBe(300);
      expect(await billingStore.findBalanceMismatches()).toEqual([]);
      expect(
        await billingStore.changeBalance({ userId, kind: 'top-up', amount: 250, description: 'card' }),
      ).toMatchObject({
        balance: 50,
        debt: 0,
      });
      expect(await billingStore.findBalanceMismatches()).toEqual([]);
    });

    it('floors the charges another node counted on after a batch repaid a debt from the stored balance', async () => {
      await billingStore.changeBalance({ userId, kind: 'top-up', amount: 500, description: 'card' });
      // Node A wrote a debt (its view had no balance left) and the batch repaid it from the stored 500 ...
      const [repaid] = await billingStore.writeSettlementBatch({
        charges: [charge(userId, apiKeyId, 0, 120)],
        usageLogs: [],
      });
      expect(repaid).toMatchObject({ balance: 380, debt: 0, repaid: 120 });
      // ... which node B had already spent: its charge of 450 arrives later.
      const [floored] = await billingStore.writeSettlementBatch({
        charges: [charge(userId, apiKeyId, 450)],
        usageLogs: [],
      });
      expect(floored).toMatchObject({ balance: 0, debt: 70, charged: 450, repaid: -70 });
      expect(await billingStore.findBalanceMismatches()).toEqual([]);
    });

    it('writes a retried batch with a shortfall once', async () => {
      await billingStore.changeBalance({ userId, kind: 'top-up', amount: 10, description: 'card' });
      const batch = { charges: [charge(userId, apiKeyId, 40)], usageLogs: [] };
      await billingStore.writeSettlementBatch(batch);
      const [again] = await billingStore.writeSettlementBatch(batch);
      expect(again).toMatchObject({ balance: 0, debt: 30, repaid: 0 });
      expect(await billingStore.listLedgerEntries(userId, { limit: 10 })).toHaveLength(3);
      expect(await billingStore.findBalanceMismatches()).toEqual([]);
    });

    it('refuses a debit larger than the balance with a message naming both, writing nothing', async () => {
      await billingStore.changeBalance({ userId, kind: 'top-up', amount: 1_000_000, description: 'card' });
      await expect(
        billingStore.changeBalance({ userId, kind: 'adjustment', amount: -1_500_000, description: 'too much' }),
      ).rejects.toThrow('The debit of 1.500000 exceeds the balance of 1.000000');
      expect(await billingStore.readStoredBalance(userId)).toMatchObject({ balance: 1_000_000, debt: 0 });
      expect(await billingStore.listLedgerEntries(userId, { limit: 10 })).toHaveLength(1);
    });

    it('keeps every balance at or above zero while two stores write batches with debt and credits arrive', async () => {
      // Two store instances are two connections (on PostgreSQL, two pools: like two gateway nodes).
      const otherStore = createBillingStore({ databaseUrl: database.url });
      try {
        const initial = 1_000;
        await billingStore.changeBalance({ userId, kind: 'top-up', amount: initial, description: 'card' });
        const batchesPerWriter = 12;
        const chargesPerBatch = 5;
        let totalCost = 0;
        let totalCredits = 0;
        const returnedBalances: number[] = [];
        const writer = async (store: BillingStore, writerIndex: number) => {
          for (let batchIndex = 0; batchIndex < batchesPerWriter; batchIndex++) {
            // Each node believes the balance covers most of its charges: charged amounts plus some debt of its own.
            const charges = Array.from({ length: chargesPerBatch }, (_, index) => {
              const amount = 20 + ((writerIndex + batchIndex + index) % 7) * 10;
              const debt = index === 0 ? 15 : 0;
              totalCost += amount + debt;
              return charge(userId, apiKeyId, amount, debt);
            });
            const settled = await store.writeSettlementBatch({ charges, usageLogs: [] });
            for (const entry of settled) returnedBalances.push(entry.balance);
          }
        };
        const crediter = async () => {
          for (let index = 0; index < 8; index++) {
            const amount = 100 + index * 25;
            totalCredits += amount;
            const result = await otherStore.changeBalance({ userId, kind: 'top-up', amount, description: 'card' });
            returnedBalances.push(result.balance);
          }
        };
        await Promise.all([writer(billingStore, 0), writer(otherStore, 1), writer(billingStore, 2), crediter()]);
        expect(returnedBalances.every((balance) => balance >= 0)).toBe(true);
        const stored = await billingStore.readStoredBalance(userId);
        expect(stored!.balance).toBeGreaterThanOrEqual(0);
        // Nothing forgiven, nothing counted twice: what is owed net of the balance is exactly cost − money paid in.
        expect(stored!.debt - stored!.balance).toBe(totalCost - totalCredits - initial);
        expect(await billingStore.findBalanceMismatches()).toEqual([]);
        expect(await otherStore.findBalanceMismatches()).toEqual([]);
      } finally {
        await otherStore.close();
      }
    });
  });
}
