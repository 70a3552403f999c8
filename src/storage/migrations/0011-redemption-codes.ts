import type { Kysely, Migration } from 'kysely';

/** Redemption codes: single-use balance credits that admins create in batches; only SHA-256 hashes of the codes are kept. */
export const redemptionCodesMigration: Migration = {
  async up(database: Kysely<any>): Promise<void> {
    await database.schema
      .createTable('redemption_codes')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('batch_id', 'text', (column) => column.notNull())
      .addColumn('code_hash', 'text', (column) => column.notNull().unique())
      .addColumn('code_prefix', 'text', (column) => column.notNull())
      .addColumn('amount', 'bigint', (column) => column.notNull())
      .addColumn('status', 'text', (column) => column.notNull())
      .addColumn('note', 'text')
      .addColumn('expires_at', 'bigint')
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('created_by', 'text', (column) => column.notNull())
      .addColumn('redeemed_by', 'text')
      .addColumn('redeemed_at', 'bigint')
      .addColumn('disabled_at', 'bigint')
      .execute();
    await database.schema
      .createIndex('redemption_codes_by_batch')
      .on('redemption_codes')
      .columns(['batch_id', 'created_at'])
      .execute();
    await database.schema
      .createIndex('redemption_codes_by_status')
      .on('redemption_codes')
      .columns(['status', 'created_at'])
      .execute();
  },
  async down(database: Kysely<any>): Promise<void> {
    await database.schema.dropTable('redemption_codes').execute();
  },
};
