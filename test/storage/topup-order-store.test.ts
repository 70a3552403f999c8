// Fulfilling and reversing a top-up order on SQLite and PostgreSQL: one transaction, exactly once under concurrency,
// the first paid order alone gets its bonus, a credit to a user in debt pays the debt first, and a refund beyond the
// balance becomes debt.
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
    refundedMinor: 0,
    reversedCreditMicroUnits: 0,
    reversedBonusMicroUnits: 0,
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

    it("re-checks every user's oldest orders first when one user holds more pending orders than the batch", async () => {
      const store = createTopupOrderStore(opened.database);
      const gatewayStore = createGatewayStore({ database: opened });
      const others = [];
      for (const name of ['second', 'third'])
        others.push(
          await gatewayStore.createUser({
            email: `${name}-${++counter}@example.test`,
            displayName: name,
            role: 'user',
            passwordHash: null,
          }),
        );
      // The heavy user's 12 orders are all older than the others' orders.
      const heavy = [];
      for (let index = 0; index < 12; index++) heavy.push(pendingOrder(userId, 1_000_000, 0));
      for (const order of heavy) await store.createOrder(order);
      const secondOrders = [pendingOrder(others[0]!.id, 1_000_000, 0), pendingOrder(others[0]!.id, 1_000_000, 0)];
      const thirdOrder = pendingOrder(others[1]!.id, 1_000_000, 0);
      for (const order of [...secondOrders, thirdOrder]) await store.createOrder(order);
      const paid = pendingOrder(others[1]!.id, 1_000_000, 0);
      await store.createOrder(paid);
      await store.fulfilOrder(paid.id, { providerReference: null, now: 5_000 });

      const batch = await store.listPendingOrdersBefore(100_000, 5, 10);
      expect(batch.map((order) => order.id)).toEqual([
        heavy[0]!.id,
        secondOrders[0]!.id,
        thirdOrder.id,
        heavy[1]!.id,
        secondOrders[1]!.id,
      ]);
      const capped = await store.listPendingOrdersBefore(100_000, 200, 3);
      expect(capped.filter((order) => order.userId === userId).map((order) => order.id)).toEqual(
        heavy.slice(0, 3).map((order) => order.id),
      );
      expect(capped).toHaveLength(6);
      expect(await store.listPendingOrdersBefore(heavy[1]!.createdAt, 200, 10)).toEqual([heavy[0]]);
      expect(await store.countPendingOrders(userId)).toBe(12);
      expect(await store.countPendingOrders(others[1]!.id)).toBe(1);
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
      expect(await store.listPendingOrdersBefore(10_000, 10, 10)).toEqual([]);
      expect(await createBillingStore({ database: opened }).findBalanceMismatches()).toEqual([]);
    });

    it('takes a refund back once when many deliveries of it arrive at once, the uncovered rest as debt', async () => {
      const store = createTopupOrderStore(opened.database);
      const billing = createBillingStore({ database: opened });
      const order = pendingOrder(userId, 5_000_000, 700_000); // 500 cents
      await store.createOrder(order);
      await store.fulfilOrder(order.id, { providerReference: null, now: 2_000 });
      await billing.changeBalance({ userId, kind: 'adjustment', amount: -5_200_000, description: 'spent' });
      const refund = {
        kind: 'refund',
        method: 'stripe',
        eventId: 'evt_1',
        refundedMinor: 300,
        currency: 'USD',
      } as const;
      const results = await Promise.all(
        Array.from({ length: 20 }, () => store.reverseOrder(order.id, refund, { now: 3_000 })),
      );
      expect(results.filter((result) => result.outcome === 'reversed')).toHaveLength(1);
      expect(results.filter((result) => result.outcome === 'unchanged')).toHaveLength(19);
      // 3/5 of 5,000,000 and of 700,000: 3,420,000, of which the balance (500,000) covers 500,000.
      expect(await billing.readStoredBalance(userId)).toMatchObject({ balance: 0, debt: 2_920_000 });
      expect(await store.findOrder(order.id)).toMatchObject({
        status: 'partially-refunded',
        refundedMinor: 300,
        reversedCreditMicroUnits: 3_000_000,
        reversedBonusMicroUnits: 420_000,
      });
      const entries = await billing.listLedgerEntries(userId, { limit: 10 });
      expect(entries.filter((entry) => entry.kind === 'topup-reversal')).toHaveLength(1);
      expect(entries.find((entry) => entry.kind === 'topup-reversal')).toMatchObject({
        kind: 'topup-reversal',
        amount: -500_000,
        debtChange: 2_920_000,
        reference: order.id,
      });

      // A dispute of the rest, won: given back as a credit, which pays the debt first.
      const dispute = {
        kind: 'dispute',
        method: 'stripe',
        eventId: 'evt_2',
        disputeId: 'dp_1',
        amountMinor: 200,
        currency: 'usd',
        status: 'open',
      } as const;
      expect(await store.reverseOrder(order.id, dispute, { now: 4_000 })).toMatchObject({
        outcome: 'reversed',
        order: { status: 'disputed' },
        debt: 2_920_000 + 2_280_000,
      });
      expect(
        await store.reverseOrder(order.id, { ...dispute, eventId: 'evt_3', status: 'won' }, { now: 5_000 }),
      ).toMatchObject({ outcome: 'restored', order: { status: 'partially-refunded' }, balance: 0, debt: 2_920_000 });
      // A late `created` for the closed dispute changes nothing.
      expect((await store.reverseOrder(order.id, dispute, { now: 6_000 })).outcome).toBe('unchanged');
      expect(await billing.findBalanceMismatches()).toEqual([]);
      expect(await billing.findOrderLedgerMismatches()).toEqual([]);
    });

    it('finds orders whose ledger entries do not add up to their credit, bonus and reversals (`billing verify`)', async () => {
      const store = createTopupOrderStore(opened.database);
      const billing = createBillingStore({ database: opened });
      const [paid, reversed, unpaid] = [
        pendingOrder(userId, 2_000_000, 300_000),
        pendingOrder(userId, 1_000_000, 0),
        pendingOrder(userId, 1_000_000, 0),
      ];
      for (const order of [paid, reversed, unpaid]) await store.createOrder(order);
      await store.fulfilOrder(paid.id, { providerReference: null, now: 2_000 });
      await store.fulfilOrder(reversed.id, { providerReference: null, now: 2_100 });
      const refund = { kind: 'refund', method: 'stripe', eventId: 'e', refundedMinor: 50, currency: 'usd' } as const;
      expect((await store.reverseOrder(reversed.id, refund, { now: 3_000 })).outcome).toBe('reversed');
      expect(await billing.findOrderLedgerMismatches()).toEqual([]);

      // An order that says more was taken back than its reversal entries took; a paid order whose credit entry is gone
      // (its bonus entry stays); an unpaid order with a credit.
      await opened.database
        .updateTable('topup_orders')
        .set({ reversed_credit_micro_units: 600_000 })
        .where('id', '=', reversed.id)
        .execute();
      await opened.database
        .deleteFrom('ledger_entries')
        .where('reference', '=', paid.id)
        .where('kind', '=', 'top-up')
        .execute();
      await opened.database
        .updateTable('ledger_entries')
        .set({ reference: unpaid.id })
        .where('reference', '=', reversed.id)
        .where('kind', '=', 'top-up')
        .execute();
      const mismatches = await billing.findOrderLedgerMismatches();
      expect(mismatches.map((mismatch) => mismatch.orderId).sort()).toEqual([paid.id, reversed.id, unpaid.id].sort());
      expect(mismatches.find((mismatch) => mismatch.orderId === paid.id)).toMatchObject({
        expectedCredit: 2_300_000,
        ledgerCredit: 300_000,
        creditEntries: 0,
      });
      expect(mismatches.find((mismatch) => mismatch.orderId === reversed.id)).toMatchObject({
        expectedReversed: 600_000,
        ledgerReversed: 500_000,
      });
      expect(mismatches.find((mismatch) => mismatch.orderId === unpaid.id)).toMatchObject({
        status: 'pending',
        expectedCredit: 0,
        ledgerCredit: 1_000_000,
        creditEntries: 1,
      });
    });

    it('remembers a refund of an order not seen paid yet and takes it back when the payment is credited', async () => {
      const store = createTopupOrderStore(opened.database);
      const billing = createBillingStore({ database: opened });
      const order = pendingOrder(userId, 1_000_000, 500_000); // 100 cents
      await store.createOrder(order);
      const refund = { kind: 'refund', method: 'stripe', eventId: 'e', refundedMinor: 40, currency: 'usd' } as const;
      expect((await store.reverseOrder(order.id, refund, { now: 2_000 })).outcome).toBe('not-paid');
      expect((await store.reverseOrder('top_missing', refund, { now: 2_000 })).outcome).toBe('unknown-order');
      expect(await billing.readStoredBalance(userId)).toMatchObject({ balance: 0, debt: 0 });
      expect(await store.findOrder(order.id)).toMatchObject({ status: 'pending', refundedMinor: 40 });

      // The paid message arrives late: credit, bonus and the 40 % refunded go in one transaction.
      expect(await store.fulfilOrder(order.id, { providerReference: null, now: 3_000 })).toMatchObject({
        outcome: 'credited',
        order: { status: 'partially-refunded', reversedCreditMicroUnits: 400_000, reversedBonusMicroUnits: 200_000 },
        balance: 900_000,
        debt: 0,
      });
      expect(await billing.readStoredBalance(userId)).toMatchObject({ balance: 900_000, debt: 0 });
      // The same refund delivered again changes nothing; another method's or another currency's neither.
      expect((await store.reverseOrder(order.id, refund, { now: 4_000 })).outcome).toBe('unchanged');
      expect((await store.reverseOrder(order.id, { ...refund, method: 'alipay' }, { now: 4_000 })).outcome).toBe(
        'unknown-order',
      );
      expect((await store.reverseOrder(order.id, { ...refund, currency: 'eur' }, { now: 4_000 })).outcome).toBe(
        'currency-mismatch',
      );
      expect(await billing.readStoredBalance(userId)).toMatchObject({ balance: 900_000, debt: 0 });
      expect(await store.hasPaidOrder(userId)).toBe(true);
      expect(await billing.findBalanceMismatches()).toEqual([]);
      expect(await billing.findOrderLedgerMismatches()).toEqual([]);
    });
  });
}
