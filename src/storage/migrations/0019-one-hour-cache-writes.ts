import type { Kysely, Migration } from 'kysely';

/** Columns added to `usage_logs`, in order: the 1-hour cache writes of a request and their price. */
const usageLogColumns = ['cache_write_one_hour_tokens', 'price_cache_write_one_hour_per_million'] as const;

/**
 * Prompt-cache writes with a 1-hour TTL have their own price (Anthropic bills them at 2× input, 5-minute ones at
 * 1.25×): an operator's price may name it (`model_prices.cache_write_one_hour_per_million`, null = twice the input
 * price), and each usage log keeps how many of its cache writes were 1-hour ones and the price they were billed at, so
 * its breakdown still adds up to its cost. Nullable: older rows have none (no 1-hour writes were told apart).
 */
export const oneHourCacheWritesMigration: Migration = {
  // Migrations take Kysely<any> on purpose: they must keep compiling after the current schema types move on.
  async up(database: Kysely<any>): Promise<void> {
    await database.schema.alterTable('model_prices').addColumn('cache_write_one_hour_per_million', 'bigint').execute();
    // One column per statement: SQLite adds a single column per ALTER TABLE.
    for (const column of usageLogColumns)
      await database.schema.alterTable('usage_logs').addColumn(column, 'bigint').execute();
  },
  async down(database: Kysely<any>): Promise<void> {
    for (const column of [...usageLogColumns].reverse())
      await database.schema.alterTable('usage_logs').dropColumn(column).execute();
    await database.schema.alterTable('model_prices').dropColumn('cache_write_one_hour_per_million').execute();
  },
};
