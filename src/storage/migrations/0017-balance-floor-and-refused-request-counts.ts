import { sql, type Kysely, type Migration } from 'kysely';
import { createRecordId } from '../../core/create-record-id.js';

/**
 * Two rules of issue 38. The floor under every balance: a balance left below zero by an earlier version (a charge
 * written against a balance other nodes had already spent) is healed once, its shortfall moved to the debt with a
 * `debt-from-shortfall` ledger entry, so `gateway billing verify` passes and debt − balance is unchanged. And refused
 * requests are counted, not logged one row each: `refused_request_counts` holds one row per UTC minute, user, key,
 * model, status and error code, whose `count` each settlement batch adds to.
 */
export const balanceFloorAndRefusedRequestCountsMigration: Migration = {
  // Migrations take Kysely<any> on purpose: they must keep compiling after the current schema types move on.
  async up(database: Kysely<any>): Promise<void> {
    const now = Date.now();
    const negative = (await database
      .selectFrom('users')
      .select(['id', 'balance'])
      .where('balance', '<', 0)
      .orderBy('id')
      .execute()) as Array<{ id: string; balance: number | string }>;
    for (const user of negative) {
      const shortfall = -Number(user.balance);
      await database
        .updateTable('users')
        .set({
          balance: sql`balance + ${shortfall}`,
          debt: sql`debt + ${shortfall}`,
          balance_sequence: sql`balance_sequence + 1`,
        })
        .where('id', '=', user.id)
        .execute();
      await database
        .insertInto('ledger_entries')
        .values({
          id: createRecordId('led', now),
          user_id: user.id,
          kind: 'debt-from-shortfall',
          amount: shortfall,
          debt_change: shortfall,
          description: 'negative balance left by an earlier version moved to the debt',
          reference: null,
          created_at: now,
        })
        .execute();
    }

    await database.schema
      .createTable('refused_request_counts')
      .addColumn('minute', 'bigint', (column) => column.notNull())
      .addColumn('user_id', 'text', (column) => column.notNull())
      .addColumn('api_key_id', 'text', (column) => column.notNull())
      .addColumn('model', 'text', (column) => column.notNull())
      .addColumn('status', 'integer', (column) => column.notNull())
      .addColumn('error_code', 'text', (column) => column.notNull())
      .addColumn('count', 'bigint', (column) => column.notNull())
      .addPrimaryKeyConstraint('refused_request_counts_pk', [
        'minute',
        'user_id',
        'api_key_id',
        'model',
        'status',
        'error_code',
      ])
      .execute();
    await database.schema
      .createIndex('refused_request_counts_by_user')
      .on('refused_request_counts')
      .columns(['user_id', 'minute'])
      .execute();
  },

  async down(database: Kysely<any>): Promise<void> {
    await database.schema.dropTable('refused_request_counts').execute();
  },
};
