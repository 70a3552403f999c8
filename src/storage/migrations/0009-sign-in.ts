import type { Kysely, Migration } from 'kysely';
import { createRecordId } from '../../core/create-record-id.js';

/** Lifetime given to admin tokens made before tokens expired, counted from this migration (90 days, in ms). */
const existingAdminTokenLifetimeMs = 90 * 24 * 3_600_000;

/**
 * Social sign-in: `identities` ((provider, subject) -> user); console sessions get an id (to list and revoke them
 * without their token hash), last use, user agent and client address; admin tokens get an id and an expiry.
 */
export const signInMigration: Migration = {
  async up(database: Kysely<any>): Promise<void> {
    await database.schema
      .createTable('identities')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('user_id', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
      .addColumn('provider', 'text', (column) => column.notNull())
      .addColumn('subject', 'text', (column) => column.notNull())
      .addColumn('email', 'text')
      .addColumn('display_name', 'text', (column) => column.notNull())
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('last_used_at', 'bigint', (column) => column.notNull())
      .addUniqueConstraint('identities_provider_subject_unique', ['provider', 'subject'])
      .execute();
    await database.schema.createIndex('identities_by_user').on('identities').column('user_id').execute();

    // Sessions made before carry no id; signing in again is cheaper than inventing ids for them.
    await database.deleteFrom('console_sessions').execute();
    await database.schema.alterTable('console_sessions').addColumn('id', 'text').execute();
    await database.schema.alterTable('console_sessions').addColumn('last_seen_at', 'bigint').execute();
    await database.schema.alterTable('console_sessions').addColumn('user_agent', 'text').execute();
    await database.schema.alterTable('console_sessions').addColumn('client_ip', 'text').execute();
    await database.schema
      .createIndex('console_sessions_id_unique')
      .on('console_sessions')
      .column('id')
      .unique()
      .execute();
    await database.schema.createIndex('console_sessions_by_user').on('console_sessions').column('user_id').execute();

    await database.schema.alterTable('admin_tokens').addColumn('id', 'text').execute();
    await database.schema.alterTable('admin_tokens').addColumn('expires_at', 'bigint').execute();
    const now = Date.now();
    const existing: { token_hash: string }[] = await database.selectFrom('admin_tokens').select('token_hash').execute();
    for (const token of existing) {
      await database
        .updateTable('admin_tokens')
        .set({ id: createRecordId('adm', now), expires_at: now + existingAdminTokenLifetimeMs })
        .where('token_hash', '=', token.token_hash)
        .execute();
    }
    await database.schema.createIndex('admin_tokens_id_unique').on('admin_tokens').column('id').unique().execute();
  },
  async down(database: Kysely<any>): Promise<void> {
    await database.schema.dropIndex('admin_tokens_id_unique').execute();
    await database.schema.alterTable('admin_tokens').dropColumn('expires_at').execute();
    await database.schema.alterTable('admin_tokens').dropColumn('id').execute();
    await database.schema.dropIndex('console_sessions_by_user').execute();
    await database.schema.dropIndex('console_sessions_id_unique').execute();
    for (const column of ['client_ip', 'user_agent', 'last_seen_at', 'id']) {
      await database.schema.alterTable('console_sessions').dropColumn(column).execute();
    }
    await database.schema.dropTable('identities').execute();
  },
};
