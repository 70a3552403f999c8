import type { Kysely, Selectable } from 'kysely';
import type { DatabaseSchema, MessageThreadTurnsTable } from './database-schema.js';
import type { MessageThreadStore, MessageThreadTurnRecord } from './message-thread-store.js';

/** How many turns a thread replays at most; a longer one is not found (the client replays it in a new thread). */
const maximumThreadTurns = 10_000;

/** Message threads over the gateway's Kysely database (SQLite or PostgreSQL). */
export function createMessageThreadStore(database: Kysely<DatabaseSchema>): MessageThreadStore {
  return {
    async saveTurn(turn) {
      await database
        .insertInto('message_thread_turns')
        .values({
          id: turn.id,
          thread_id: turn.threadId,
          previous_message_id: turn.previousMessageId,
          user_id: turn.userId,
          api_key_id: turn.apiKeyId,
          system: jsonOrNull(turn.system),
          tools: jsonOrNull(turn.tools),
          messages: JSON.stringify(turn.messages),
          created_at: turn.createdAt,
          expires_at: turn.expiresAt,
        })
        .execute();
      if (turn.previousMessageId === null) return;
      await database
        .updateTable('message_thread_turns')
        .set({ expires_at: turn.expiresAt })
        .where('thread_id', '=', turn.threadId)
        .where('expires_at', '<', turn.expiresAt)
        .execute();
    },

    async loadThread(messageId, apiKeyId, now) {
      const newest = await database
        .selectFrom('message_thread_turns')
        .select(['thread_id'])
        .where('id', '=', messageId)
        .where('api_key_id', '=', apiKeyId)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      if (!newest) return undefined;
      const rows = await database
        .selectFrom('message_thread_turns')
        .selectAll()
        .where('thread_id', '=', newest.thread_id)
        .where('api_key_id', '=', apiKeyId)
        .execute();
      const byId = new Map(rows.map((row) => [row.id, row]));
      const turns: MessageThreadTurnRecord[] = [];
      let next: string | null = messageId;
      while (next !== null) {
        const row = byId.get(next);
        // A turn missing from the chain (removed while this read ran) or a chain past the cap: the thread is not whole.
        if (!row || turns.length >= maximumThreadTurns) return undefined;
        byId.delete(next);
        turns.push(decodeRow(row));
        next = row.previous_message_id;
      }
      return { turns: turns.reverse() };
    },

    async deleteExpired(now) {
      const result = await database
        .deleteFrom('message_thread_turns')
        .where('expires_at', '<=', now)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

function jsonOrNull(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}

function decodeRow(row: Selectable<MessageThreadTurnsTable>): MessageThreadTurnRecord {
  return {
    id: row.id,
    threadId: row.thread_id,
    previousMessageId: row.previous_message_id,
    userId: row.user_id,
    apiKeyId: row.api_key_id,
    system: row.system === null ? null : (JSON.parse(row.system) as unknown),
    tools: row.tools === null ? null : (JSON.parse(row.tools) as unknown),
    messages: JSON.parse(row.messages) as unknown[],
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
  };
}
