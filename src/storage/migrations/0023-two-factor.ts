import type { Kysely, Migration } from 'kysely';

/**
 * TOTP two-factor sign-in: `two_factor_settings` (one row per user: the sealed secret, when it was confirmed, the last
 * time step used so a code is never accepted twice), `two_factor_recovery_codes` (hashes of single-use codes) and
 * `two_factor_challenges` (a password or social sign-in waiting for its second factor, by its cookie token's hash).
 */
export const twoFactorMigration: Migration = {
  // Migrations take Kysely<any> on purpose: they must keep compiling after the current schema types move on.
  async up(database: Kysely<any>): Promise<void> {
    await database.schema
      .createTable('two_factor_settings')
      .addColumn('user_id', 'text', (column) => column.primaryKey())
      .addColumn('sealed_secret', 'text', (column) => column.notNull())
      .addColumn('enabled_at', 'bigint')
      .addColumn('last_used_step', 'bigint')
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .execute();
    await database.schema
      .createTable('two_factor_recovery_codes')
      .addColumn('user_id', 'text', (column) => column.notNull())
      .addColumn('code_hash', 'text', (column) => column.notNull())
      .addColumn('used_at', 'bigint')
      .addPrimaryKeyConstraint('two_factor_recovery_codes_pk', ['user_id', 'code_hash'])
      .execute();
    await database.schema
      .createTable('two_factor_challenges')
      .addColumn('token_hash', 'text', (column) => column.primaryKey())
      .addColumn('user_id', 'text', (column) => column.notNull())
      .addColumn('return_path', 'text', (column) => column.notNull())
      .addColumn('expires_at', 'bigint', (column) => column.notNull())
      .execute();
  },
  async down(database: Kysely<any>): Promise<void> {
    await database.schema.dropTable('two_factor_challenges').execute();
    await database.schema.dropTable('two_factor_recovery_codes').execute();
    await database.schema.dropTable('two_factor_settings').execute();
  },
};
