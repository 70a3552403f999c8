import type { Kysely, Selectable } from 'kysely';
import type { DatabaseSchema, StoredResponsesTable } from './database-schema.js';
import type { ResponsesStore, StoredResponseRecord } from './responses-store.js';

/** Stored responses over the gateway's Kysely database (SQLite or PostgreSQL). */
export function createResponsesStore(database: Kysely<DatabaseSchema>): ResponsesStore {
  return {
    async save(record) {
      await database
        .insertInto('stored_responses')
        .values({
          id: record.id,
          user_id: record.userId,
          api_key_id: record.apiKeyId,
          model: record.model,
          channel_id: record.channelId,
          vendor_response_id: record.vendorResponseId,
          previous_response_id: record.previousResponseId,
          input_items: JSON.stringify(record.inputItems),
          response: JSON.stringify(record.response),
          created_at: record.createdAt,
        })
        .execute();
    },

    async find(id, userId) {
      const row = await database
        .selectFrom('stored_responses')
        .selectAll()
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row === undefined ? undefined : decodeRow(row);
    },

    async delete(id, userId) {
      const result = await database
        .deleteFrom('stored_responses')
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}

function decodeRow(row: Selectable<StoredResponsesTable>): StoredResponseRecord {
  return {
    id: row.id,
    userId: row.user_id,
    apiKeyId: row.api_key_id,
    model: row.model,
    channelId: row.channel_id,
    vendorResponseId: row.vendor_response_id,
    previousResponseId: row.previous_response_id,
    inputItems: JSON.parse(row.input_items) as Array<Record<string, unknown>>,
    response: JSON.parse(row.response) as Record<string, unknown>,
    createdAt: Number(row.created_at),
  };
}
