import { sql, type Kysely, type Migration } from 'kysely';

/**
 * User ↔ group entitlements and who disabled a key. An existing database keeps working: every user is granted
 * the groups their keys are in, and keys disabled before this migration count as disabled by an admin (their
 * owner cannot re-enable them; an admin or the CLI can), because who disabled them was not recorded.
 */
export const userGroupsMigration: Migration = {
  // Migrations take Kysely<any> on purpose: they must keep compiling after the current schema types move on.
  async up(database: Kysely<any>): Promise<void> {
    await database.schema
      .createTable('user_groups')
      .addColumn('user_id', 'text', (column) => column.notNull())
      .addColumn('group_id', 'text', (column) => column.notNull())
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addPrimaryKeyConstraint('user_groups_primary_key', ['user_id', 'group_id'])
      .addForeignKeyConstraint('user_groups_user_id_foreign', ['user_id'], 'users', ['id'], (constraint) =>
        constraint.onDelete('cascade'),
      )
      .addForeignKeyConstraint('user_groups_group_id_foreign', ['group_id'], 'model_groups', ['id'], (constraint) =>
        constraint.onDelete('cascade'),
      )
      .execute();
    // Deleting a group removes its grants; without this index PostgreSQL would scan every grant to find them.
    await database.schema.createIndex('user_groups_group_id_index').on('user_groups').column('group_id').execute();

    await database
      .insertInto('user_groups')
      .columns(['user_id', 'group_id', 'created_at'])
      .expression(
        database
          .selectFrom('api_keys')
          .select(['user_id', 'group_id', sql.lit(Date.now()).as('created_at')])
          .distinct(),
      )
      .execute();

    await database.schema.alterTable('api_keys').addColumn('disabled_by', 'text').execute();
    await database.updateTable('api_keys').set({ disabled_by: 'admin' }).where('status', '=', 'disabled').execute();
  },

  async down(database: Kysely<any>): Promise<void> {
    await database.schema.alterTable('api_keys').dropColumn('disabled_by').execute();
    await database.schema.dropTable('user_groups').execute();
  },
};
