import type { Kysely, Migration } from 'kysely';

/**
 * Bounded data (issue 41): `request_bodies` keeps, when the operator turns it on (GATEWAY_REQUEST_BODY_LOG=on), the
 * body a client sent and the answer it got, each cut at a size cap, under the request's `x-request-id`; its own
 * retention deletes it in batches by `created_at`. And two indexes for the console: `usage_logs_by_key` lets the log
 * list filtered by key read its first page by index instead of walking the whole `created_at` index for a key that was
 * quiet lately, and `usage_daily_rollups_by_user` gives a user's dashboard their own days without reading every user's
 * rows of the range (the hourly rollups have had that index since 0012).
 */
export const requestBodiesMigration: Migration = {
  // Migrations take Kysely<any> on purpose: they must keep compiling after the current schema types move on.
  async up(database: Kysely<any>): Promise<void> {
    await database.schema
      .createTable('request_bodies')
      .addColumn('request_id', 'text', (column) => column.primaryKey())
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('user_id', 'text', (column) => column.notNull())
      .addColumn('api_key_id', 'text', (column) => column.notNull())
      .addColumn('endpoint', 'text', (column) => column.notNull())
      .addColumn('status', 'integer', (column) => column.notNull())
      .addColumn('request_body', 'text', (column) => column.notNull())
      .addColumn('request_bytes', 'bigint', (column) => column.notNull())
      .addColumn('request_truncated', 'integer', (column) => column.notNull())
      .addColumn('response_body', 'text')
      .addColumn('response_bytes', 'bigint', (column) => column.notNull())
      .addColumn('response_truncated', 'integer', (column) => column.notNull())
      .execute();
    await database.schema
      .createIndex('request_bodies_by_created_at')
      .on('request_bodies')
      .column('created_at')
      .execute();
    await database.schema
      .createIndex('usage_daily_rollups_by_user')
      .on('usage_daily_rollups')
      .columns(['user_id', 'day'])
      .execute();
    await database.schema
      .createIndex('usage_logs_by_key')
      .on('usage_logs')
      .columns(['api_key_id', 'created_at'])
      .execute();
  },

  async down(database: Kysely<any>): Promise<void> {
    await database.schema.dropIndex('usage_logs_by_key').execute();
    await database.schema.dropIndex('usage_daily_rollups_by_user').execute();
    await database.schema.dropTable('request_bodies').execute();
  },
};
