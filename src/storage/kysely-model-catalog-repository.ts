import type { Selectable } from 'kysely';
import type { DatabaseExecutor } from './database-executor.js';
import type { ModelCatalogEntriesTable } from './database-schema.js';
import type { RepositoryContext } from './repository-context.js';
import type { ModelCatalogEntryRecord } from './store-records.js';

/** The admins' model catalog entries, laid over the built-in catalog; every write is a routing change. */
export interface ModelCatalogRepository {
  listModelCatalogEntries(): Promise<ModelCatalogEntryRecord[]>;
  /** creates or replaces the entry of one model */
  putModelCatalogEntry(modelId: string, fields: Record<string, unknown>): Promise<ModelCatalogEntryRecord>;
  /** false when the model had no entry */
  deleteModelCatalogEntry(modelId: string): Promise<boolean>;
}

/** The model catalog repository over the gateway's database. */
export function createModelCatalogRepository({
  database,
  clock,
  writeWithRoutingRevision,
}: RepositoryContext): ModelCatalogRepository {
  return {
    listModelCatalogEntries: () => listModelCatalogEntries(database),

    async putModelCatalogEntry(modelId, fields) {
      const row: ModelCatalogEntriesTable = { model_id: modelId, entry: JSON.stringify(fields), updated_at: clock() };
      await writeWithRoutingRevision((transaction) =>
        transaction
          .insertInto('model_catalog_entries')
          .values(row)
          .onConflict((conflict) =>
            conflict.column('model_id').doUpdateSet({ entry: row.entry, updated_at: row.updated_at }),
          )
          .execute(),
      );
      return decodeModelCatalogEntry(row);
    },

    async deleteModelCatalogEntry(modelId) {
      const result = await writeWithRoutingRevision((transaction) =>
        transaction.deleteFrom('model_catalog_entries').where('model_id', '=', modelId).executeTakeFirst(),
      );
      return result.numDeletedRows > 0n;
    },
  };
}

/** Every stored catalog entry, by model id. */
export async function listModelCatalogEntries(executor: DatabaseExecutor): Promise<ModelCatalogEntryRecord[]> {
  const rows = await executor.selectFrom('model_catalog_entries').selectAll().orderBy('model_id').execute();
  return rows.map(decodeModelCatalogEntry);
}

function decodeModelCatalogEntry(row: Selectable<ModelCatalogEntriesTable>): ModelCatalogEntryRecord {
  return {
    modelId: row.model_id,
    fields: JSON.parse(row.entry) as Record<string, unknown>,
    updatedAt: Number(row.updated_at),
  };
}
