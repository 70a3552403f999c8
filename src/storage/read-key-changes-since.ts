import type { DatabaseExecutor } from './database-executor.js';
import type { RevisionTable } from './write-with-revision.js';

/** Beyond this many revisions behind, a full reload is cheaper than re-reading the keys one by one. */
const maxIncrementalRevisions = 200;

/**
 * The ids of the keys changed between `sinceRevision` (exclusive) and `untilRevision` (inclusive), when every one of
 * those revisions was a change to one key alone; undefined when any of them was another write (or is no longer
 * logged), which means the caller must reload everything.
 */
export async function readKeyChangesSince(
  executor: DatabaseExecutor,
  revisionTable: RevisionTable,
  sinceRevision: number,
  untilRevision: number,
): Promise<string[] | undefined> {
  const behind = untilRevision - sinceRevision;
  if (behind <= 0 || behind > maxIncrementalRevisions) return undefined;
  const rows = await executor
    .selectFrom('key_changes')
    .select(['api_key_id'])
    .where('revision_table', '=', revisionTable)
    .where('revision', '>', sinceRevision)
    .where('revision', '<=', untilRevision)
    .execute();
  if (rows.length !== behind) return undefined;
  const apiKeyIds = new Set<string>();
  for (const row of rows) {
    if (row.api_key_id === null) return undefined;
    apiKeyIds.add(row.api_key_id);
  }
  return [...apiKeyIds];
}
