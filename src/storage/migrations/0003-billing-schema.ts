import type { Kysely, Migration } from 'kysely';

/**
 * Money and accounting: balances with a ledger, prices, usage logs and daily rollups, key and user limits,
 * console sessions and admin tokens. Amounts are bigint micro-units (see docs/BILLING.md).
 */
export const billingSchemaMigration: Migration = {
  // Migrations take Kysely<any> on purpose: they must keep compiling after the current schema types move on.
  async up(database: Kysely<any>): Promise<void> {
    // SQLite accepts one ADD COLUMN per ALTER TABLE, so every column gets its own statement.
    const addColumns = async (table: string, columns: Array<[string, 'bigint' | 'text', string | number | null]>) => {
      for (const [name, type, defaultValue] of columns) {
        await database.schema
          .alterTable(table)
          .addColumn(name, type, (column) =>
            defaultValue === null ? column : column.notNull().defaultTo(defaultValue),
          )
          .execute();
      }
    };
    await addColumns('users', [
      ['balance', 'bigint', 0],
      ['balance_sequence', 'bigint', 0],
      ['requests_per_minute', 'bigint', null],
      ['tokens_per_minute', 'bigint', null],
      ['max_concurrent_requests', 'bigint', null],
    ]);
    await addColumns('api_keys', [
      ['spending_cap', 'bigint', null],
      ['spent', 'bigint', 0],
      ['allowed_ips', 'text', '[]'],
      ['requests_per_minute', 'bigint', null],
      ['tokens_per_minute', 'bigint', null],
      ['max_concurrent_requests', 'bigint', null],
    ]);
    await addColumns('model_groups', [['price_ratio_millionths', 'bigint', 1_000_000]]);

    await database.schema
      .createTable('ledger_entries')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('user_id', 'text', (column) => column.notNull())
      .addColumn('kind', 'text', (column) => column.notNull())
      .addColumn('amount', 'bigint', (column) => column.notNull())
      .addColumn('description', 'text', (column) => column.notNull())
      .addColumn('reference', 'text')
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .execute();
    await database.schema
      .createIndex('ledger_entries_user_index')
      .on('ledger_entries')
      .columns(['user_id', 'created_at'])
      .execute();

    await database.schema
      .createTable('model_prices')
      .addColumn('model_id', 'text', (column) => column.primaryKey())
      .addColumn('input_per_million', 'bigint', (column) => column.notNull())
      .addColumn('cached_input_per_million', 'bigint', (column) => column.notNull())
      .addColumn('cache_write_per_million', 'bigint', (column) => column.notNull())
      .addColumn('output_per_million', 'bigint', (column) => column.notNull())
      .addColumn('image_prices', 'text', (column) => column.notNull())
      .addColumn('audio_per_minute', 'bigint', (column) => column.notNull())
      .addColumn('video_per_second', 'bigint', (column) => column.notNull())
      .addColumn('updated_at', 'bigint', (column) => column.notNull())
      .execute();

    await database.schema
      .createTable('usage_logs')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('user_id', 'text', (column) => column.notNull())
      .addColumn('api_key_id', 'text', (column) => column.notNull())
      .addColumn('model', 'text', (column) => column.notNull())
      .addColumn('channel_id', 'text')
      .addColumn('endpoint', 'text', (column) => column.notNull())
      .addColumn('prompt_tokens', 'bigint', (column) => column.notNull())
      .addColumn('completion_tokens', 'bigint', (column) => column.notNull())
      .addColumn('cached_tokens', 'bigint', (column) => column.notNull())
      .addColumn('cost', 'bigint', (column) => column.notNull())
      .addColumn('status', 'bigint', (column) => column.notNull())
      .addColumn('error_code', 'text')
      .addColumn('latency_ms', 'bigint', (column) => column.notNull())
      .addColumn('first_token_ms', 'bigint')
      .addColumn('streamed', 'bigint', (column) => column.notNull())
      .addColumn('client_ip', 'text', (column) => column.notNull())
      .execute();
    await database.schema
      .createIndex('usage_logs_user_index')
      .on('usage_logs')
      .columns(['user_id', 'created_at'])
      .execute();
    await database.schema.createIndex('usage_logs_created_index').on('usage_logs').column('created_at').execute();

    await database.schema
      .createTable('usage_daily_rollups')
      .addColumn('day', 'text', (column) => column.notNull())
      .addColumn('user_id', 'text', (column) => column.notNull())
      .addColumn('api_key_id', 'text', (column) => column.notNull())
      .addColumn('model', 'text', (column) => column.notNull())
      .addColumn('request_count', 'bigint', (column) => column.notNull())
      .addColumn('error_count', 'bigint', (column) => column.notNull())
      .addColumn('prompt_tokens', 'bigint', (column) => column.notNull())
      .addColumn('completion_tokens', 'bigint', (column) => column.notNull())
      .addColumn('cached_tokens', 'bigint', (column) => column.notNull())
      .addColumn('cost', 'bigint', (column) => column.notNull())
      .addPrimaryKeyConstraint('usage_daily_rollups_primary_key', ['day', 'user_id', 'api_key_id', 'model'])
      .execute();

    await database.schema
      .createTable('console_sessions')
      .addColumn('token_hash', 'text', (column) => column.primaryKey())
      .addColumn('user_id', 'text', (column) => column.notNull())
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('expires_at', 'bigint', (column) => column.notNull())
      .execute();

    await database.schema
      .createTable('admin_tokens')
      .addColumn('token_hash', 'text', (column) => column.primaryKey())
      .addColumn('name', 'text', (column) => column.notNull())
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .execute();

    await database.schema
      .createTable('billing_revision')
      .addColumn('id', 'integer', (column) => column.primaryKey())
      .addColumn('revision', 'bigint', (column) => column.notNull())
      .execute();
    await database.insertInto('billing_revision').values({ id: 1, revision: 0 }).execute();
  },

  async down(database: Kysely<any>): Promise<void> {
    for (const table of [
      'billing_revision',
      'admin_tokens',
      'console_sessions',
      'usage_daily_rollups',
      'usage_logs',
      'model_prices',
      'ledger_entries',
    ]) {
      await database.schema.dropTable(table).execute();
    }
    for (const column of [
      'max_concurrent_requests',
      'tokens_per_minute',
      'requests_per_minute',
      'allowed_ips',
      'spent',
      'spending_cap',
    ]) {
      await database.schema.alterTable('api_keys').dropColumn(column).execute();
    }
    for (const column of [
      'max_concurrent_requests',
      'tokens_per_minute',
      'requests_per_minute',
      'balance_sequence',
      'balance',
    ]) {
      await database.schema.alterTable('users').dropColumn(column).execute();
    }
    await database.schema.alterTable('model_groups').dropColumn('price_ratio_millionths').execute();
  },
};
