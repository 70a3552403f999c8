// Fulfilling a top-up order on SQLite and PostgreSQL: one transaction, exactly once under concurrency, the first
// paid order alone gets its bonus, and a credit to a user in debt pays the debt first.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDatabase, type DatabaseDialect } from '../../src/storage/create-database.js';
import type { DatabaseSchema } from '../../src/storage/database-schema.js';
import { createGatewayStore } from '../../src/storage/kysely-gateway-store.js';
import { createBillingStore } from '../../src/storage/kysely-billing-store.js';
import { createTopupOrderStore } from '../../src/storage/kysely-topup-order-store.js';
import type { TopupOrderRecord } from '../../src/storage/topup-order-records.js';
import type { Kysely } from 'kysely';
import { storageTestEngines, type TestDatabase } from '../helpers/storage-test-engines.js';

const engines = storageTestEngines('topup-orders');

let counter = 0;

function pendingOrder(userId: string, credit: number, bonus: number): TopupOrderRecord {
  counter += 1;
  return {
    id: `top_test_${counter}`,
    userId,
    method: 'stripe',
    status: 'pending',
    amountPaidMinor: credit / 10_000,
    currency: 'usd',
    creditMicroUnits: credit,
    bonusMicroUnits: bonus,
    providerReference: null,
    failureReason: null,
    createdAt: 1_000 + counter,
    paidAt: null,
    updatedAt: 1_000 + counter,
  };
}

for (const engine of engines) {
  describe.runIf(engine.run)(`top-up order store on ${engine.name}`, () => {
    let testDatabase: TestDatabase;
    let opened: { database: Kysely<DatabaseSchema>; dialect: DatabaseDialect };
    let userId: string;

    beforeEach(async () => {
      testDatabase = await engine.create();
      opened = createDatabase(testDatabase.url);
      const gatewayStore = createGatewayStore({ database: opened });
      await gatewayStore.migrate();
      userId = (
        await gatewayStore.createUser({
          email: `payer-${++counter}@example.test`,
          displayName: 'Payer',
          role: 'user',
          passwordHash: null,
        })
      ).id;
    });

    afterEach(async () => {
      await opened.database.destroy();
      await testDatabase.drop();
    });

    it('credits once when the same order is fulfilled by many deliveries at once, with the bonus of the first paid order', async () => {
      const store = createTopupOrderStore(opened.database);
      const first = pendingOrder(userId, 5_000_000, 700_000);
      await store.createOrder(first);
      const results = await Promise.all(
        Array.from({ length: 20 }, () => store.fulfilOrder(first.id, { providerReference: 'cs_1', now: 2_000 })),
      );
      expect(results.filter((result) => result.outcome === 'credited')).toHaveLength(1);
      expect(await store.findOrder(first.id)).toMatchObject({
        status: 'paid',
        paidAt: 2_000,
        providerReference: 'cs_1',
        bonusMicroUnits: 700_000,
      });

      // The second paid order of the user gets no bonus, whatever was offered when it was created.
      const second = pendingOrder(userId, 2_000_000, 700_000);
      await store.createOrder(second);
      expect(await store.fulfilOrder(second.id, { providerReference: null, now: 3_000 })).toMatchObject({
        outcome: 'credited',
        order: { bonusMicroUnits: 0 },
      });
      expect(await store.findOrder(second.id)).toMatchObject({ bonusMicroUnits: 0 });

      const billing = createBillingStore({ database: opened });
      expect(await billing.readBalance(userId)).toBe(5_000_000 + 700_000 + 2_000_000);
      const entries = await billing.listLedgerEntries(userId, { limit: 10 });
      expect(entries.map((entry) => [entry.kind, entry.amount, entry.reference]).reverse()).toEqual([
        ['top-up', 5_000_000, first.id],
        ['bonus', 700_000, first.id],
        ['top-up', 2_000_000, second.id],
      ]);
      expect(await billing.findBalanceMismatches()).toEqual([]);
    });

    it('pays a standing debt first, and never moves a failed order to paid', async () => {
      await opened.database.updateTable('users').set({ debt: 1_500_000 }).where('id', '=', userId).execute();
      await opened.database
        .insertInto('ledger_entries')
        .values({
          id: `led_debt_${counter}`,
          user_id: userId,
          kind: 'settlement',
          amount: 0,
          debt_change: 1_500_000,
          description: 'uncovered',
          reference: null,
          created_at: 1,
        })
        .execute();
      const store = createTopupOrderStore(opened.database);
      const order = pendingOrder(userId, 1_000_000, 0);
      await store.createOrder(order);
      expect(await store.fulfilOrder(order.id, { providerReference: null, now: 2_000 })).toMatchObject({
        outcome: 'credited',
        balance: 0,
        debt: 500_000,
      });

      const failed = pendingOrder(userId, 1_000_000, 0);
      await store.createOrder(failed);
      expect(
        await store.transitionOrder(failed.id, ['pending'], 'failed', { failureReason: 'declined', now: 2_500 }),
      ).toBe(true);
      expect(await store.fulfilOrder(failed.id, { providerReference: null, now: 3_000 })).toMatchObject({
        outcome: 'unchanged',
        order: { status: 'failed' },
      });
      expect(await store.listPendingOrdersBefore(10_000, 10)).toEqual([]);
      expect(await createBillingStore({ database: opened }).findBalanceMismatches()).toEqual([]);
    });
  });
}
