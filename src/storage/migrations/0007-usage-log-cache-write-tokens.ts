import type { Kysely, Migration } from 'kysely';

/** The usage log keeps the input tokens written to the vendor's prompt cache, so a bill priced by them can be explained. */
export const usageLogCacheWriteTokensMigration: Migration = {
  // Migrations take Kysely<any> on purpose: they must keep compiling after the current schema types move on.
  async up(database: Kysely<any>): Promise<void> {
    await database.schema
      .alterTable('usage_logs')
      .addColumn('cache_write_tokens', 'bigint', (column) => column.notNull().defaultTo(0))
      .execute();
  },
  async down(database: Kysely<any>): Promise<void> {
    await database.schema.alterTable('usage_logs').dropColumn('cache_write_tokens').execute();
  },
};
