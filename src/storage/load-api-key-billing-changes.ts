import type { Kysely } from 'kysely';
import type { ApiKeyBillingRecord } from './billing-records.js';
import type { DatabaseSchema } from './database-schema.js';
import { readKeyChangesSince } from './read-key-changes-since.js';

/** The billing rows of the keys changed since a revision, read at `revision`; a changed key missing was deleted. */
export interface ApiKeyBillingChanges {
  revision: number;
  changedApiKeyIds: string[];
  apiKeys: ApiKeyBillingRecord[];
}

/**
 * The billing rows of the keys changed since `sinceRevision` when every billing change since was to one key's
 * settings (cap, allow-list, limits); undefined when anything else changed (prices, balances, user limits).
 */
export function loadApiKeyBillingChanges(
  database: Kysely<DatabaseSchema>,
  sinceRevision: number,
): Promise<ApiKeyBillingChanges | undefined> {
  return database
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (transaction): Promise<ApiKeyBillingChanges | undefined> => {
      const { revision } = await transaction
        .selectFrom('billing_revision')
        .select('revision')
        .where('id', '=', 1)
        .executeTakeFirstOrThrow();
      const changedApiKeyIds = await readKeyChangesSince(
        transaction,
        'billing_revision',
        sinceRevision,
        Number(revision),
      );
      if (changedApiKeyIds === undefined) return undefined;
      const rows = await transaction
        .selectFrom('api_keys')
        .select([
          'id',
          'spending_cap',
          'spent',
          'allowed_ips',
          'requests_per_minute',
          'tokens_per_minute',
          'max_concurrent_requests',
        ])
        .where('id', 'in', changedApiKeyIds)
        .execute();
      const read = (value: number | null) => (value === null ? null : Number(value));
      return {
        revision: Number(revision),
        changedApiKeyIds,
        apiKeys: rows.map((row) => ({
          apiKeyId: row.id,
          spendingCap: read(row.spending_cap),
          spent: Number(row.spent),
          allowedIps: JSON.parse(row.allowed_ips) as string[],
          limits: {
            requestsPerMinute: read(row.requests_per_minute),
            tokensPerMinute: read(row.tokens_per_minute),
            maxConcurrentRequests: read(row.max_concurrent_requests),
          },
        })),
      };
    });
}
