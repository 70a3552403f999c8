import type { Kysely, Migration } from 'kysely';

/**
 * Payments that reverse (refunds, disputes): what of each paid order the provider gave back (`refunded_minor`,
 * cumulative, minor units), what of its credit and bonus was taken back (micro-units), and one row per dispute
 * (`topup_disputes`) with its amount and state, so a dispute won gives back exactly what it took.
 */
export const topupReversalsMigration: Migration = {
  // Migrations take Kysely<any> on purpose: they must keep compiling after the current schema types move on.
  async up(database: Kysely<any>): Promise<void> {
    for (const column of ['refunded_minor', 'reversed_credit_micro_units', 'reversed_bonus_micro_units'])
      await database.schema
        .alterTable('topup_orders')
        .addColumn(column, 'bigint', (definition) => definition.notNull().defaultTo(0))
        .execute();
    await database.schema
      .createTable('topup_disputes')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('order_id', 'text', (column) => column.notNull())
      .addColumn('amount_minor', 'bigint', (column) => column.notNull())
      .addColumn('status', 'text', (column) => column.notNull())
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('updated_at', 'bigint', (column) => column.notNull())
      .execute();
    await database.schema.createIndex('topup_disputes_by_order').on('topup_disputes').column('order_id').execute();
  },

  async down(database: Kysely<any>): Promise<void> {
    await database.schema.dropTable('topup_disputes').execute();
    for (const column of ['reversed_bonus_micro_units', 'reversed_credit_micro_units', 'refunded_minor'])
      await database.schema.alterTable('topup_orders').dropColumn(column).execute();
  },
};
