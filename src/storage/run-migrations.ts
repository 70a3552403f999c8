import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { withoutStatementTimeout } from './without-statement-timeout.js';
import type { DatabaseSchema } from './database-schema.js';
import { initialSchemaMigration } from './migrations/0001-initial-schema.js';
import { channelSettingsMigration } from './migrations/0002-channel-settings.js';
import { billingSchemaMigration } from './migrations/0003-billing-schema.js';
import { modelCatalogEntriesMigration } from './migrations/0004-model-catalog-entries.js';
import { userGroupsMigration } from './migrations/0005-user-groups.js';
import { userDebtMigration } from './migrations/0006-user-debt.js';
import { usageLogCacheWriteTokensMigration } from './migrations/0007-usage-log-cache-write-tokens.js';
import { auditLogMigration } from './migrations/0008-audit-log.js';
import { signInMigration } from './migrations/0009-sign-in.js';
import { topupOrdersMigration } from './migrations/0010-topup-orders.js';
import { redemptionCodesMigration } from './migrations/0011-redemption-codes.js';
import { usageRequestIdsAndHourlyRollupsMigration } from './migrations/0012-usage-request-ids-and-hourly-rollups.js';
import { usageLogPricingMigration } from './migrations/0013-usage-log-pricing.js';
import { paymentWebhookDeliveriesMigration } from './migrations/0014-payment-webhook-deliveries.js';
import { storedResponsesMigration } from './migrations/0015-stored-responses.js';
import { videoTasksMigration } from './migrations/0016-video-tasks.js';
import { balanceFloorAndRefusedRequestCountsMigration } from './migrations/0017-balance-floor-and-refused-request-counts.js';
import { topupReversalsMigration } from './migrations/0018-topup-reversals.js';
import { oneHourCacheWritesMigration } from './migrations/0019-one-hour-cache-writes.js';
import { messageThreadsMigration } from './migrations/0020-message-threads.js';
import { secretKeyCheckMigration } from './migrations/0021-secret-key-check.js';
import { apiKeyAdminLimitsMigration } from './migrations/0022-api-key-admin-limits.js';
import { twoFactorMigration } from './migrations/0023-two-factor.js';
import { auditActorMigration } from './migrations/0024-audit-actor.js';
import { requestBodiesMigration } from './migrations/0025-request-bodies.js';
import { keyChangesMigration } from './migrations/0026-key-changes.js';

/**
 * Every migration by name, in order. Listed in code rather than scanned from a folder so the same
 * list works from `dist/`, from tsx and from a bundle. Names sort alphabetically in run order.
 */
const migrations: Record<string, Migration> = {
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
  '0017-balance-floor-and-refused-request-counts': balanceFloorAndRefusedRequestCountsMigration,
  '0018-topup-reversals': topupReversalsMigration,
  '0019-one-hour-cache-writes': oneHourCacheWritesMigration,
  '0020-message-threads': messageThreadsMigration,
  '0021-secret-key-check': secretKeyCheckMigration,
  '0022-api-key-admin-limits': apiKeyAdminLimitsMigration,
  '0023-two-factor': twoFactorMigration,
  '0024-audit-actor': auditActorMigration,
  '0025-request-bodies': requestBodiesMigration,
  '0026-key-changes': keyChangesMigration,
};

const staticMigrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};

/** Brings the database up to the latest schema; a no-op when it is already there. */
export async function runMigrations(database: Kysely<DatabaseSchema>): Promise<void> {
  const { error, results } = await withoutStatementTimeout(database, (connection) =>
    new Migrator({
      db: connection,
      provider: staticMigrationProvider,
      nameComparator: compareCodePoints,
    }).migrateToLatest(),
  );
  if (error !== undefined) {
    const failed = results?.find((result) => result.status === 'Error');
    const where = failed === undefined ? '' : ` in ${failed.migrationName}`;
    throw new Error(`Database migration failed${where}: ${describeError(error)}`, { cause: error });
  }
}

/**
 * Orders migration names by code point. Kysely's default, `localeCompare`, loads ICU's collation tables into the
 * process (about 3 MB of resident memory for good) only to sort names that are ASCII and numbered.
 */
function compareCodePoints(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
