import type { Kysely, Transaction } from 'kysely';
import type { DatabaseSchema } from './database-schema.js';

/** A table holding one revision counter that running gateways poll to notice changes. */
export type RevisionTable = 'routing_revision' | 'billing_revision';

/** Runs a write and bumps the revision in the same transaction, so caches never miss a change. */
export function writeWithRevision<Result>(
  database: Kysely<DatabaseSchema>,
  revisionTable: RevisionTable,
  work: (transaction: Transaction<DatabaseSchema>) => Promise<Result>,
): Promise<Result> {
  return database.transaction().execute(async (transaction) => {
    const result = await work(transaction);
    await transaction
      .updateTable(revisionTable)
      .set((expression) => ({ revision: expression('revision', '+', 1) }))
      .where('id', '=', 1)
      .execute();
    return result;
  });
}
