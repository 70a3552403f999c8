import type { Kysely, Migration } from 'kysely';

/**
 * `api_keys.admin_limits`: a JSON object of the limits an administrator put on the key (expiry, spending cap, address
 * list, request limits), each with the value the administrator set, so the key's owner may tighten them but never
 * loosen them. Keys made before it have `{}`: no limit of theirs is known to be an administrator's.
 */
export const apiKeyAdminLimitsMigration: Migration = {
  // Migrations take Kysely<any> on purpose: they must keep compiling after the current schema types move on.
  async up(database: Kysely<any>): Promise<void> {
    await database.schema
      .alterTable('api_keys')
      .addColumn('admin_limits', 'text', (column) => column.notNull().defaultTo('{}'))
      .execute();
  },

  async down(database: Kysely<any>): Promise<void> {
    await database.schema.alterTable('api_keys').dropColumn('admin_limits').execute();
  },
};
