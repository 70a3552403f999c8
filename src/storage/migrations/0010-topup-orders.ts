import type { Kysely, Migration } from 'kysely';

/** Top-up orders: one row per payment attempt through Stripe or Alipay (docs/ACCOUNTS.md#top-up-stripe-and-alipay). */
export const topupOrdersMigration: Migration = {
  async up(database: Kysely<any>): Promise<void> {
    await database.schema
      .createTable('topup_orders')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('user_id', 'text', (column) => column.notNull())
      .addColumn('method', 'text', (column) => column.notNull())
      .addColumn('status', 'text', (column) => column.notNull())
      .addColumn('amount_paid_minor', 'bigint', (column) => column.notNull())
      .addColumn('currency', 'text', (column) => column.notNull())
      .addColumn('credit_micro_units', 'bigint', (column) => column.notNull())
      .addColumn('bonus_micro_units', 'bigint', (column) => column.notNull())
      .addColumn('provider_reference', 'text')
      .addColumn('failure_reason', 'text')
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('paid_at', 'bigint')
      .addColumn('updated_at', 'bigint', (column) => column.notNull())
      .execute();
    await database.schema
      .createIndex('topup_orders_by_user')
      .on('topup_orders')
      .columns(['user_id', 'created_at'])
      .execute();
    await database.schema
      .createIndex('topup_orders_by_status')
      .on('topup_orders')
      .columns(['status', 'created_at'])
      .execute();
  },
  async down(database: Kysely<any>): Promise<void> {
    await database.schema.dropTable('topup_orders').execute();
  },
};
