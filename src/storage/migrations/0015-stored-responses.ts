import type { Kysely, Migration } from 'kysely';

/**
 * Stored Responses API responses (`store` true, the default): per user and key, the gateway's `resp_` id, the
 * channel and the vendor's own response id (private: used only to continue a chain on the same channel), the
 * previous response of the chain, the request's input items (with gateway item ids) and the final Response JSON.
 */
export const storedResponsesMigration: Migration = {
  async up(database: Kysely<any>): Promise<void> {
    await database.schema
      .createTable('stored_responses')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('user_id', 'text', (column) => column.notNull())
      .addColumn('api_key_id', 'text', (column) => column.notNull())
      .addColumn('model', 'text', (column) => column.notNull())
      .addColumn('channel_id', 'text')
      .addColumn('vendor_response_id', 'text')
      .addColumn('previous_response_id', 'text')
      .addColumn('input_items', 'text', (column) => column.notNull())
      .addColumn('response', 'text', (column) => column.notNull())
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .execute();
    await database.schema
      .createIndex('stored_responses_by_user')
      .on('stored_responses')
      .columns(['user_id', 'created_at'])
      .execute();
  },
  async down(database: Kysely<any>): Promise<void> {
    await database.schema.dropTable('stored_responses').execute();
  },
};
