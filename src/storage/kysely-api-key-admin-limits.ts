import type { Kysely, Transaction } from 'kysely';
import { z } from 'zod';
import type { DatabaseSchema } from './database-schema.js';
import type { ApiKeyAdminLimits } from './store-records.js';

type DatabaseExecutor = Kysely<DatabaseSchema> | Transaction<DatabaseSchema>;

const positiveInteger = z.number().int().positive();
// Stored JSON is checked at the edge: a hand-edited or older row never reaches the rules as something else.
const adminLimitsSchema = z.object({
  expiresAt: positiveInteger.optional(),
  spendingCap: z.number().int().min(0).optional(),
  allowedIps: z.array(z.string()).min(1).optional(),
  requestsPerMinute: positiveInteger.optional(),
  tokensPerMinute: positiveInteger.optional(),
  maxConcurrentRequests: positiveInteger.optional(),
});

/** The limits an administrator set on the key (`api_keys.admin_limits`), or throws when the key does not exist. */
export async function readApiKeyAdminLimits(executor: DatabaseExecutor, apiKeyId: string): Promise<ApiKeyAdminLimits> {
  const row = await executor
    .selectFrom('api_keys')
    .select('admin_limits')
    .where('id', '=', apiKeyId)
    .executeTakeFirst();
  if (!row) throw new Error(`No API key ${apiKeyId} exists`);
  return adminLimitsSchema.parse(JSON.parse(row.admin_limits));
}

/** Replaces the limits an administrator set on the key; not a routing change (billing and routing keep the values). */
export async function writeApiKeyAdminLimits(
  executor: DatabaseExecutor,
  apiKeyId: string,
  limits: ApiKeyAdminLimits,
): Promise<void> {
  const result = await executor
    .updateTable('api_keys')
    .set({ admin_limits: JSON.stringify(adminLimitsSchema.parse(limits)) })
    .where('id', '=', apiKeyId)
    .executeTakeFirst();
  if (!result.numUpdatedRows) throw new Error(`No API key ${apiKeyId} exists`);
}
