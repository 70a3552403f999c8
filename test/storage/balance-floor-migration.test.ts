// Migration 0017 heals what the missing floor left behind: a balance below zero (a charge written against a balance
// other nodes had already spent) becomes a zero balance and a debt, with a `debt-from-shortfall` ledger entry, so
// `gateway billing verify` passes and what the user owes net of the balance is unchanged.
import { Migrator, type Migration } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createDatabase } from '../../src/storage/create-database.js';
import { createBillingStore } from '../../src/storage/kysely-billing-store.js';
import { initialSchemaMigration } from '../../src/storage/migrations/0001-initial-schema.js';
import { channelSettingsMigration } from '../../src/storage/migrations/0002-channel-settings.js';
import { billingSchemaMigration } from '../../src/storage/migrations/0003-billing-schema.js';
import { modelCatalogEntriesMigration } from '../../src/storage/migrations/0004-model-catalog-entries.js';
import { userGroupsMigration } from '../../src/storage/migrations/0005-user-groups.js';
import { userDebtMigration } from '../../src/storage/migrations/0006-user-debt.js';
import { usageLogCacheWriteTokensMigration } from '../../src/storage/migrations/0007-usage-log-cache-write-tokens.js';
import { auditLogMigration } from '../../src/storage/migrations/0008-audit-log.js';
import { signInMigration } from '../../src/storage/migrations/0009-sign-in.js';
import { topupOrdersMigration } from '../../src/storage/migrations/0010-topup-orders.js';
import { redemptionCodesMigration } from '../../src/storage/migrations/0011-redemption-codes.js';
import { usageRequestIdsAndHourlyRollupsMigration } from '../../src/storage/migrations/0012-usage-request-ids-and-hourly-rollups.js';
import { usageLogPricingMigration } from '../../src/storage/migrations/0013-usage-log-pricing.js';
import { paymentWebhookDeliveriesMigration } from '../../src/storage/migrations/0014-payment-webhook-deliveries.js';
import { storedResponsesMigration } from '../../src/storage/migrations/0015-stored-responses.js';
import { videoTasksMigration } from '../../src/storage/migrations/0016-video-tasks.js';
import { storageTestEngines, type TestDatabase } from '../helpers/storage-test-engines.js';

/** The schema as it was before the balance floor (migrations 0001 to 0016). */
const migrationsBeforeFloor: Record<string, Migration> = {
  '0001-initial-schema': initialSchemaMigration,
  '0002-channel-settings': channelSettingsMigration,
  '0003-billing-schema': billingSchemaMigration,
  '0004-model-catalog-entries': modelCatalogEntriesMigration,
  '0005-user-groups': userGroupsMigration,
  '0006-user-debt': userDebtMigration,
  '0007-usage-log-cache-write-tokens': usageLogCacheWriteTokensMigration,
  '0008-audit-log': auditLogMigration,
  '0009-sign-in': signInMigration,
  '0010-topup-orders': topupOrdersMigration,
  '0011-redemption-codes': redemptionCodesMigration,
  '0012-usage-request-ids-and-hourly-rollups': usageRequestIdsAndHourlyRollupsMigration,
  '0013-usage-log-pricing': usageLogPricingMigration,
  '0014-payment-webhook-deliveries': paymentWebhookDeliveriesMigration,
  '0015-stored-responses': storedResponsesMigration,
  '0016-video-tasks': videoTasksMigration,
};

const engines = storageTestEngines('floor-migration');
let created: TestDatabase | undefined;

afterEach(async () => {
  await created?.drop();
  created = undefined;
});

for (const engine of engines) {
  describe.runIf(engine.run)(`migration 0017 on ${engine.name}`, () => {
    it('moves a negative balance left by an earlier version to the debt, with its ledger entry', async () => {
      created = await engine.create();
      const { database } = createDatabase(created.url);
      const migrator = new Migrator({ db: database, provider: { getMigrations: async () => migrationsBeforeFloor } });
      const { error } = await migrator.migrateToLatest();
      if (error) throw error;
      await database
        .insertInto('users')
        .values({
          id: 'usr_neg',
          email: 'neg@example.com',
          display_name: 'Neg',
          role: 'user',
          status: 'active',
          created_at: 1,
          balance: -2_600,
          debt: 400,
        })
        .execute();
      // What an earlier version wrote: a top-up, then settlements taking the balance below zero, and some debt.
      await database
        .insertInto('ledger_entries')
        .values([
          {
            id: 'led_1',
            user_id: 'usr_neg',
            kind: 'top-up',
            amount: 1_000,
            debt_change: 0,
            description: 'card',
            reference: null,
            created_at: 1,
          },
          {
            id: 'led_2',
            user_id: 'usr_neg',
            kind: 'settlement',
            amount: -3_600,
            debt_change: 400,
            description: 'request settlement',
            reference: 'req_1',
            created_at: 2,
          },
        ])
        .execute();
      await database.destroy();

      const store = createBillingStore({ databaseUrl: created.url });
      try {
        await store.migrate();
        expect(await store.readStoredBalance('usr_neg')).toMatchObject({ balance: 0, debt: 3_000 });
        const ledger = await store.listLedgerEntries('usr_neg', { limit: 10 });
        expect(ledger.find((entry) => entry.kind === 'debt-from-shortfall')).toMatchObject({
          amount: 2_600,
          debtChange: 2_600,
        });
        expect(await store.findBalanceMismatches()).toEqual([]);
      } finally {
        await store.close();
      }
    });
  });
}
