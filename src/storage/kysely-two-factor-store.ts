import type { Kysely } from 'kysely';
import type { DatabaseSchema } from './database-schema.js';
import type { TwoFactorStore } from './two-factor-store.js';

/** The TwoFactorStore over the gateway's Kysely database (SQLite or PostgreSQL). */
export function createTwoFactorStore(database: Kysely<DatabaseSchema>): TwoFactorStore {
  return {
    async find(userId) {
      const row = await database
        .selectFrom('two_factor_settings')
        .selectAll()
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (row === undefined) return undefined;
      const left = await database
        .selectFrom('two_factor_recovery_codes')
        .select((builder) => builder.fn.countAll<number | string>().as('count'))
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .executeTakeFirstOrThrow();
      return {
        userId,
        sealedSecret: row.sealed_secret,
        enabledAt: row.enabled_at === null ? null : Number(row.enabled_at),
        lastUsedStep: row.last_used_step === null ? null : Number(row.last_used_step),
        recoveryCodesLeft: Number(left.count),
      };
    },

    async startEnrolment(userId, sealedSecret, now) {
      return database.transaction().execute(async (transaction) => {
        const existing = await transaction
          .selectFrom('two_factor_settings')
          .select('enabled_at')
          .where('user_id', '=', userId)
          .executeTakeFirst();
        if (existing !== undefined && existing.enabled_at !== null) return false;
        await transaction.deleteFrom('two_factor_settings').where('user_id', '=', userId).execute();
        await transaction
          .insertInto('two_factor_settings')
          .values({
            user_id: userId,
            sealed_secret: sealedSecret,
            enabled_at: null,
            last_used_step: null,
            created_at: now,
          })
          .execute();
        return true;
      });
    },

    async enable(userId, { step, recoveryCodeHashes, now }) {
      return database.transaction().execute(async (transaction) => {
        const result = await transaction
          .updateTable('two_factor_settings')
          .set({ enabled_at: now, last_used_step: step })
          .where('user_id', '=', userId)
          .where('enabled_at', 'is', null)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) return false;
        await transaction.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
        await transaction
          .insertInto('two_factor_recovery_codes')
          .values(recoveryCodeHashes.map((codeHash) => ({ user_id: userId, code_hash: codeHash, used_at: null })))
          .execute();
        return true;
      });
    },

    async replaceRecoveryCodes(userId, recoveryCodeHashes) {
      return database.transaction().execute(async (transaction) => {
        const enabled = await transaction
          .selectFrom('two_factor_settings')
          .select('user_id')
          .where('user_id', '=', userId)
          .where('enabled_at', 'is not', null)
          .executeTakeFirst();
        if (enabled === undefined) return false;
        await transaction.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
        await transaction
          .insertInto('two_factor_recovery_codes')
          .values(recoveryCodeHashes.map((codeHash) => ({ user_id: userId, code_hash: codeHash, used_at: null })))
          .execute();
        return true;
      });
    },

    async disable(userId) {
      return database.transaction().execute(async (transaction) => {
        await transaction.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
        const result = await transaction
          .deleteFrom('two_factor_settings')
          .where('user_id', '=', userId)
          .executeTakeFirst();
        return Number(result.numDeletedRows) > 0;
      });
    },

    async useStep(userId, step) {
      // One conditional update, so two requests with the same code cannot both pass.
      const result = await database
        .updateTable('two_factor_settings')
        .set({ last_used_step: step })
        .where('user_id', '=', userId)
        .where('enabled_at', 'is not', null)
        .where((builder) => builder.or([builder('last_used_step', 'is', null), builder('last_used_step', '<', step)]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async useRecoveryCode(userId, codeHash, now) {
      const result = await database
        .updateTable('two_factor_recovery_codes')
        .set({ used_at: now })
        .where('user_id', '=', userId)
        .where('code_hash', '=', codeHash)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async createChallenge(tokenHash, challenge) {
      await database
        .insertInto('two_factor_challenges')
        .values({
          token_hash: tokenHash,
          user_id: challenge.userId,
          return_path: challenge.returnPath,
          expires_at: challenge.expiresAt,
        })
        .execute();
    },

    async findChallenge(tokenHash, now) {
      const row = await database
        .selectFrom('two_factor_challenges')
        .selectAll()
        .where('token_hash', '=', tokenHash)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return row === undefined
        ? undefined
        : { userId: row.user_id, returnPath: row.return_path, expiresAt: Number(row.expires_at) };
    },

    async deleteChallenge(tokenHash, now) {
      await database
        .deleteFrom('two_factor_challenges')
        .where((builder) => builder.or([builder('token_hash', '=', tokenHash), builder('expires_at', '<=', now)]))
        .execute();
    },
  };
}
