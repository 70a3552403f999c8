import type { Kysely, Transaction } from 'kysely';
import type { DatabaseSchema } from './database-schema.js';
import type { RevisionTable } from './write-with-revision.js';

/** How many key changes per revision table are kept; a node further behind than this reloads everything. */
export const keptKeyChanges = 1_000;

/** What a key write did: its result, and the key it changed (null when the change reaches beyond that key). */
export interface KeyChangeOutcome<Result> {
  result: Result;
  changedApiKeyId: string | null;
}

/**
 * Runs a write to one API key, bumps the revision and logs which key that revision changed, all in one transaction,
 * so nodes can apply the change to that key alone (readKeyChangesSince). Old log rows are pruned as it goes.
 */
export function writeKeyChangeWithRevision<Result>(
  database: Kysely<DatabaseSchema>,
  revisionTable: RevisionTable,
  work: (transaction: Transaction<DatabaseSchema>) => Promise<KeyChangeOutcome<Result>>,
): Promise<Result> {
  return database.transaction().execute(async (transaction) => {
    const outcome = await work(transaction);
    await transaction
      .updateTable(revisionTable)
      .set((expression) => ({ revision: expression('revision', '+', 1) }))
      .where('id', '=', 1)
      .execute();
    // Read inside the transaction after the bump: the row is locked, so this is the revision this write commits at.
    const { revision } = await transaction
      .selectFrom(revisionTable)
      .select('revision')
      .where('id', '=', 1)
      .executeTakeFirstOrThrow();
    await transaction
      .insertInto('key_changes')
      .values({ revision_table: revisionTable, revision, api_key_id: outcome.changedApiKeyId })
      .execute();
    await transaction
      .deleteFrom('key_changes')
      .where('revision_table', '=', revisionTable)
      .where('revision', '<=', Number(revision) - keptKeyChanges)
      .execute();
    return outcome.result;
  });
}
