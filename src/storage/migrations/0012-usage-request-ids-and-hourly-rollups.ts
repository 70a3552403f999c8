import type { Kysely, Migration } from 'kysely';

/**
 * The console's usage views: each usage log keeps the request's `x-request-id` (indexed, so a client's id finds its
 * row), hourly rollups beside the daily ones (a 24-hour view without scanning logs), and each key's last use.
 */
export const usageRequestIdsAndHourlyRollupsMigration: Migration = {
  // Migrations take Kysely<any> on purpose: they must keep compiling after the current schema types move on.
  async up(database: Kysely<any>): Promise<void> {
    await database.schema.alterTable('usage_logs').addColumn('request_id', 'text').execute();
    await database.schema.createIndex('usage_logs_by_request_id').on('usage_logs').column('request_id').execute();
    await database.schema
      .createTable('usage_hourly_rollups')
      .addColumn('hour', 'bigint', (column) => column.notNull())
      .addColumn('user_id', 'text', (column) => column.notNull())
      .addColumn('api_key_id', 'text', (column) => column.notNull())
      .addColumn('model', 'text', (column) => column.notNull())
      .addColumn('request_count', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('error_count', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('prompt_tokens', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('completion_tokens', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('cached_tokens', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('cost', 'bigint', (column) => column.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('usage_hourly_rollups_pk', ['hour', 'user_id', 'api_key_id', 'model'])
      .execute();
    await database.schema
      .createIndex('usage_hourly_rollups_by_user')
      .on('usage_hourly_rollups')
      .columns(['user_id', 'hour'])
      .execute();
    await database.schema.alterTable('api_keys').addColumn('last_used_at', 'bigint').execute();
  },
  async down(database: Kysely<any>): Promise<void> {
    await database.schema.alterTable('api_keys').dropColumn('last_used_at').execute();
    await database.schema.dropTable('usage_hourly_rollups').execute();
    await database.schema.dropIndex('usage_logs_by_request_id').execute();
    await database.schema.alterTable('usage_logs').dropColumn('request_id').execute();
  },
};
