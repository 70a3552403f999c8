import type { Insertable, Selectable } from 'kysely';
import type { CreatedDatabase } from './create-database.js';
import type { RequestBodiesTable } from './database-schema.js';
import { deleteOldestRows } from './delete-oldest-rows.js';
import type { RequestBodyRecord, RequestBodyStore } from './request-body-store.js';

/** Most records one insert statement carries: 12 columns each stays well under SQLite's limit on bound variables. */
const recordsPerInsert = 50;

/** The body log over the gateway's database (SQLite or PostgreSQL); the tables come from migration 0025. */
export function createRequestBodyStore({ database, dialect }: CreatedDatabase): RequestBodyStore {
  return {
    async writeRequestBodies(records) {
      for (let start = 0; start < records.length; start += recordsPerInsert) {
        await database
          .insertInto('request_bodies')
          .values(records.slice(start, start + recordsPerInsert).map(encodeRequestBody))
          .onConflict((conflict) => conflict.column('request_id').doNothing())
          .execute();
      }
    },

    async findRequestBody(requestId) {
      const row = await database
        .selectFrom('request_bodies')
        .selectAll()
        .where('request_id', '=', requestId)
        .executeTakeFirst();
      return row === undefined ? undefined : decodeRequestBody(row);
    },

    deleteOldestRequestBodies: (before, limit) =>
      deleteOldestRows(database, dialect, { table: 'request_bodies', before, limit }),
  };
}

function encodeRequestBody(record: RequestBodyRecord): Insertable<RequestBodiesTable> {
  return {
    request_id: record.requestId,
    created_at: record.createdAt,
    user_id: record.userId,
    api_key_id: record.apiKeyId,
    endpoint: record.endpoint,
    status: record.status,
    request_body: record.requestBody,
    request_bytes: record.requestBytes,
    request_truncated: record.requestTruncated ? 1 : 0,
    response_body: record.responseBody,
    response_bytes: record.responseBytes,
    response_truncated: record.responseTruncated ? 1 : 0,
  };
}

function decodeRequestBody(row: Selectable<RequestBodiesTable>): RequestBodyRecord {
  return {
    requestId: row.request_id,
    createdAt: Number(row.created_at),
    userId: row.user_id,
    apiKeyId: row.api_key_id,
    endpoint: row.endpoint,
    status: Number(row.status),
    requestBody: row.request_body,
    requestBytes: Number(row.request_bytes),
    requestTruncated: Number(row.request_truncated) === 1,
    responseBody: row.response_body,
    responseBytes: Number(row.response_bytes),
    responseTruncated: Number(row.response_truncated) === 1,
  };
}
