import type { Kysely, Migration } from 'kysely';

/**
 * `key_changes`: which API key each recent routing or billing revision changed (null for a change that is not one
 * key's alone). A node whose table is behind by key changes only re-reads those keys instead of reloading everything;
 * any other write leaves a gap in this log and gets the full reload as before.
 */
export const keyChangesMigration: Migration = {
  // Migrations take Kysely<any> on purpose: they must keep compiling after the current schema types move on.
  async up(database: Kysely<any>): Promise<void> {
    await database.schema
      .createTable('key_changes')
      .addColumn('revision_table', 'text', (column) => column.notNull())
      .addColumn('revision', 'bigint', (column) => column.notNull())
      .addColumn('api_key_id', 'text')
      .addPrimaryKeyConstraint('key_changes_primary_key', ['revision_table', 'revision'])
      .execute();
  },

  async down(database: Kysely<any>): Promise<void> {
    await database.schema.dropTable('key_changes').execute();
  },
};
