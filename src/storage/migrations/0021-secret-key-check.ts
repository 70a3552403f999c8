import type { Kysely, Migration } from 'kysely';

/**
 * The check value of the gateway's secret key (an HMAC of a constant under it), written by the first node that starts
 * on the database; every later node compares its own key's value, so a node with another key refuses to start.
 * One row: `id` is always 1.
 */
export const secretKeyCheckMigration: Migration = {
  // Migrations take Kysely<any> on purpose: they must keep compiling after the current schema types move on.
  async up(database: Kysely<any>): Promise<void> {
    await database.schema
      .createTable('secret_key_check')
      .addColumn('id', 'integer', (column) => column.primaryKey())
      .addColumn('check_value', 'text', (column) => column.notNull())
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .execute();
  },
  async down(database: Kysely<any>): Promise<void> {
    await database.schema.dropTable('secret_key_check').execute();
  },
};
