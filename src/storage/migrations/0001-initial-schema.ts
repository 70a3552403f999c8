import type { Kysely, Migration } from 'kysely';

/** Users, model groups, channels, API keys and the routing revision counter; runs on SQLite and PostgreSQL. */
export const initialSchemaMigration: Migration = {
  // Migrations take Kysely<any> on purpose: they must keep compiling after the current schema types move on.
  async up(database: Kysely<any>): Promise<void> {
    await database.schema
      .createTable('users')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('email', 'text', (column) => column.notNull())
      .addColumn('display_name', 'text', (column) => column.notNull())
      .addColumn('role', 'text', (column) => column.notNull())
      .addColumn('password_hash', 'text')
      .addColumn('status', 'text', (column) => column.notNull())
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addUniqueConstraint('users_email_unique', ['email'])
      .execute();

    await database.schema
      .createTable('model_groups')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('name', 'text', (column) => column.notNull())
      .addColumn('description', 'text', (column) => column.notNull())
      .addColumn('models', 'text', (column) => column.notNull())
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addUniqueConstraint('model_groups_name_unique', ['name'])
      .execute();

    await database.schema
      .createTable('channels')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('name', 'text', (column) => column.notNull())
      .addColumn('protocol', 'text', (column) => column.notNull())
      .addColumn('preset', 'text')
      .addColumn('base_url', 'text', (column) => column.notNull())
      .addColumn('encrypted_secret', 'text', (column) => column.notNull())
      .addColumn('models', 'text', (column) => column.notNull())
      .addColumn('model_mapping', 'text', (column) => column.notNull())
      .addColumn('priority', 'integer', (column) => column.notNull())
      .addColumn('weight', 'integer', (column) => column.notNull())
      .addColumn('status', 'text', (column) => column.notNull())
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('updated_at', 'bigint', (column) => column.notNull())
      .addUniqueConstraint('channels_name_unique', ['name'])
      .execute();

    await database.schema
      .createTable('api_keys')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('user_id', 'text', (column) => column.notNull())
      .addColumn('group_id', 'text', (column) => column.notNull())
      .addColumn('name', 'text', (column) => column.notNull())
      .addColumn('key_hash', 'text', (column) => column.notNull())
      .addColumn('key_prefix', 'text', (column) => column.notNull())
      .addColumn('status', 'text', (column) => column.notNull())
      .addColumn('expires_at', 'bigint')
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addUniqueConstraint('api_keys_key_hash_unique', ['key_hash'])
      .addForeignKeyConstraint('api_keys_user_id_foreign', ['user_id'], 'users', ['id'])
      .addForeignKeyConstraint('api_keys_group_id_foreign', ['group_id'], 'model_groups', ['id'])
      .execute();

    await database.schema.createIndex('api_keys_user_id_index').on('api_keys').column('user_id').execute();
    // PostgreSQL does not index referencing columns by itself; without this, deleting a group scans every key.
    await database.schema.createIndex('api_keys_group_id_index').on('api_keys').column('group_id').execute();

    await database.schema
      .createTable('routing_revision')
      .addColumn('id', 'integer', (column) => column.primaryKey())
      .addColumn('revision', 'bigint', (column) => column.notNull())
      .execute();
    await database.insertInto('routing_revision').values({ id: 1, revision: 0 }).execute();
  },

  async down(database: Kysely<any>): Promise<void> {
    await database.schema.dropTable('routing_revision').execute();
    await database.schema.dropTable('api_keys').execute();
    await database.schema.dropTable('channels').execute();
    await database.schema.dropTable('model_groups').execute();
    await database.schema.dropTable('users').execute();
  },
};
