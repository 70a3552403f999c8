import type { Kysely, Migration } from 'kysely';

/**
 * Video tasks (issue 12): one row per asynchronous video job, its compare-and-swap state, its durable money hold
 * (micro-units), the poller's schedule and row lease, and where its finished video is stored.
 */
export const videoTasksMigration: Migration = {
  async up(database: Kysely<any>): Promise<void> {
    await database.schema
      .createTable('video_tasks')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('user_id', 'text', (column) => column.notNull())
      .addColumn('api_key_id', 'text', (column) => column.notNull())
      .addColumn('group_id', 'text', (column) => column.notNull())
      .addColumn('surface', 'text', (column) => column.notNull())
      .addColumn('public_model', 'text', (column) => column.notNull())
      .addColumn('upstream_model', 'text', (column) => column.notNull())
      .addColumn('channel_id', 'text')
      .addColumn('vendor_task_id', 'text')
      .addColumn('prompt', 'text', (column) => column.notNull())
      .addColumn('requested_seconds', 'integer', (column) => column.notNull())
      .addColumn('seconds', 'integer', (column) => column.notNull())
      .addColumn('width', 'integer', (column) => column.notNull())
      .addColumn('height', 'integer', (column) => column.notNull())
      .addColumn('state', 'text', (column) => column.notNull())
      .addColumn('progress', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('version', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('error_code', 'text')
      .addColumn('error_message', 'text')
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('started_at', 'bigint')
      .addColumn('completed_at', 'bigint')
      .addColumn('expires_at', 'bigint', (column) => column.notNull())
      .addColumn('deleted_at', 'bigint')
      .addColumn('held_amount', 'bigint', (column) => column.notNull())
      .addColumn('open_hold', 'bigint', (column) => column.notNull())
      .addColumn('settled_amount', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('price_per_second', 'bigint', (column) => column.notNull())
      .addColumn('price_ratio_millionths', 'bigint', (column) => column.notNull())
      .addColumn('generated_seconds', 'integer')
      .addColumn('content_reference', 'text')
      .addColumn('next_poll_at', 'bigint', (column) => column.notNull())
      .addColumn('poll_attempts', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('lease_owner', 'text')
      .addColumn('lease_until', 'bigint')
      .addColumn('content_location', 'text')
      .addColumn('content_removed_at', 'bigint')
      .addColumn('request_id', 'text', (column) => column.notNull())
      .execute();
    await database.schema
      .createIndex('video_tasks_by_user')
      .on('video_tasks')
      .columns(['user_id', 'created_at'])
      .execute();
    await database.schema.createIndex('video_tasks_due').on('video_tasks').columns(['state', 'next_poll_at']).execute();
  },
  async down(database: Kysely<any>): Promise<void> {
    await database.schema.dropTable('video_tasks').execute();
  },
};
