import type { Kysely, Migration } from 'kysely';

/** Who did what as an administrator: credits, grants, channel and price changes, order re-checks. */
export const auditLogMigration: Migration = {
  async up(database: Kysely<any>): Promise<void> {
    await database.schema
      .createTable('audit_log')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('actor_user_id', 'text')
      .addColumn('actor_label', 'text', (column) => column.notNull())
      .addColumn('action', 'text', (column) => column.notNull())
      .addColumn('target_type', 'text', (column) => column.notNull())
      .addColumn('target_id', 'text')
      .addColumn('details', 'text', (column) => column.notNull())
      .execute();
    await database.schema
      .createIndex('audit_log_by_action')
      .on('audit_log')
      .columns(['action', 'created_at'])
      .execute();
  },
  async down(database: Kysely<any>): Promise<void> {
    await database.schema.dropTable('audit_log').execute();
  },
};
