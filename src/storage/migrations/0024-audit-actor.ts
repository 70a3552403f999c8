import type { Kysely, Migration } from 'kysely';

/**
 * `audit_log.actor_kind` (`user`, `admin_token`, `cli` or `webhook`) and `audit_log.actor_id` (the admin token's id, or the OS
 * user name for the CLI), so every administrator write names who did it. Older rows were signed-in users, unnamed admin
 * tokens (label `admin token`) or payment webhooks (label `<method> webhook`); their ids stay null.
 */
export const auditActorMigration: Migration = {
  // Migrations take Kysely<any> on purpose: they must keep compiling after the current schema types move on.
  async up(database: Kysely<any>): Promise<void> {
    await database.schema
      .alterTable('audit_log')
      .addColumn('actor_kind', 'text', (column) => column.notNull().defaultTo('user'))
      .execute();
    await database.schema.alterTable('audit_log').addColumn('actor_id', 'text').execute();
    await database
      .updateTable('audit_log')
      .set({ actor_kind: 'admin_token' })
      .where('actor_label', '=', 'admin token')
      .execute();
    await database
      .updateTable('audit_log')
      .set({ actor_kind: 'webhook' })
      .where('actor_user_id', 'is', null)
      .where('actor_label', 'like', '% webhook')
      .execute();
  },

  async down(database: Kysely<any>): Promise<void> {
    await database.schema.alterTable('audit_log').dropColumn('actor_id').execute();
    await database.schema.alterTable('audit_log').dropColumn('actor_kind').execute();
  },
};
