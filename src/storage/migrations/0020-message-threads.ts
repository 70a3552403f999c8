import type { Kysely, Migration } from 'kysely';

/**
 * Anthropic message threads the gateway holds (`thread: {type: "create" | "continue"}` on `/v1/messages`): one row per
 * answered turn, named by the answer's `msg_` id, with the thread's first turn's id, the turn it continued, the key
 * that owns it, what the turn added to the conversation (its request messages and the answer), the creation-time
 * `system` and `tools` (first turn only), and when the whole thread expires (moved on by every turn).
 */
export const messageThreadsMigration: Migration = {
  // Migrations take Kysely<any> on purpose: they must keep compiling after the current schema types move on.
  async up(database: Kysely<any>): Promise<void> {
    await database.schema
      .createTable('message_thread_turns')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('thread_id', 'text', (column) => column.notNull())
      .addColumn('previous_message_id', 'text')
      .addColumn('user_id', 'text', (column) => column.notNull())
      .addColumn('api_key_id', 'text', (column) => column.notNull())
      .addColumn('system', 'text')
      .addColumn('tools', 'text')
      .addColumn('messages', 'text', (column) => column.notNull())
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('expires_at', 'bigint', (column) => column.notNull())
      .execute();
    await database.schema
      .createIndex('message_thread_turns_by_thread')
      .on('message_thread_turns')
      .column('thread_id')
      .execute();
    await database.schema
      .createIndex('message_thread_turns_by_expiry')
      .on('message_thread_turns')
      .column('expires_at')
      .execute();
  },
  async down(database: Kysely<any>): Promise<void> {
    await database.schema.dropTable('message_thread_turns').execute();
  },
};
