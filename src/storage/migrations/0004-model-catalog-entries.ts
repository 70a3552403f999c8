import type { Kysely, Migration } from 'kysely';

/** Operators' changes to the model catalog made through the admin API, one JSON entry per model. */
export const modelCatalogEntriesMigration: Migration = {
  async up(database: Kysely<any>): Promise<void> {
    await database.schema
      .createTable('model_catalog_entries')
      .addColumn('model_id', 'text', (column) => column.primaryKey())
      .addColumn('entry', 'text', (column) => column.notNull())
      .addColumn('updated_at', 'bigint', (column) => column.notNull())
      .execute();
  },
  async down(database: Kysely<any>): Promise<void> {
    await database.schema.dropTable('model_catalog_entries').execute();
  },
};
