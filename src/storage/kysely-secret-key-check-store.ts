import type { Kysely } from 'kysely';
import type { DatabaseSchema } from './database-schema.js';
import type { SecretKeyCheckStore } from './secret-key-check-store.js';

/** The one row of `secret_key_check`. */
const rowId = 1;

/** The secret key's check value over the gateway's Kysely database (SQLite or PostgreSQL). */
export function createSecretKeyCheckStore(database: Kysely<DatabaseSchema>): SecretKeyCheckStore {
  async function read(): Promise<string | undefined> {
    const row = await database
      .selectFrom('secret_key_check')
      .select('check_value')
      .where('id', '=', rowId)
      .executeTakeFirst();
    return row?.check_value;
  }
  return {
    read,
    async recordIfAbsent(checkValue, now) {
      await database
        .insertInto('secret_key_check')
        .values({ id: rowId, check_value: checkValue, created_at: now })
        .onConflict((conflict) => conflict.column('id').doNothing())
        .execute();
      const stored = await read();
      if (stored === undefined) throw new Error('The secret key check value was not stored');
      return stored;
    },
    async replace(from, to, now) {
      const result = await database
        .updateTable('secret_key_check')
        .set({ check_value: to, created_at: now })
        .where('id', '=', rowId)
        .where('check_value', '=', from)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
  };
}
