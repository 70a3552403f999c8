import type { Kysely, Migration } from 'kysely';

/**
 * Payment webhook deliveries: the latest Stripe webhook or Alipay notification received per method, verified and
 * rejected (id `<method>:verified|rejected`), so the admin status page on any node shows the last one; never the
 * payload, only what the page needs.
 */
export const paymentWebhookDeliveriesMigration: Migration = {
  async up(database: Kysely<any>): Promise<void> {
    await database.schema
      .createTable('payment_webhook_deliveries')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('method', 'text', (column) => column.notNull())
      .addColumn('received_at', 'bigint', (column) => column.notNull())
      .addColumn('verified', 'integer', (column) => column.notNull())
      .addColumn('outcome', 'text', (column) => column.notNull())
      .addColumn('order_id', 'text')
      .execute();
    await database.schema
      .createIndex('payment_webhook_deliveries_by_method')
      .on('payment_webhook_deliveries')
      .columns(['method', 'received_at'])
      .execute();
  },
  async down(database: Kysely<any>): Promise<void> {
    await database.schema.dropTable('payment_webhook_deliveries').execute();
  },
};
