// Message threads on SQLite and PostgreSQL (migration 0020): a continue replays every turn of its thread up to the
// turn it names, for the owning key only; a thread expires as a whole after its last turn, and expired turns go.
import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDatabase, type DatabaseDialect } from '../../src/storage/create-database.js';
import type { DatabaseSchema } from '../../src/storage/database-schema.js';
import { createGatewayStore } from '../../src/storage/kysely-gateway-store.js';
import { createMessageThreadStore } from '../../src/storage/kysely-message-thread-store.js';
import type { MessageThreadTurnRecord } from '../../src/storage/message-thread-store.js';
import { storageTestEngines, type TestDatabase } from '../helpers/storage-test-engines.js';

const engines = storageTestEngines('message-threads');
// Unix milliseconds beyond 32 bits: the columns are bigints on both engines.
const start = 1_790_000_000_000;
const retention = 1_000;

function turn(id: string, previous: MessageThreadTurnRecord | null, createdAt: number): MessageThreadTurnRecord {
  return {
    id,
    threadId: previous?.threadId ?? id,
    previousMessageId: previous?.id ?? null,
    userId: 'user_a',
    apiKeyId: 'key_a',
    system: previous ? null : [{ type: 'text', text: 'Be brief.' }],
    tools: previous ? null : [{ name: 'get_weather', input_schema: { type: 'object' } }],
    messages: [
      { role: 'user', content: `question of ${id}` },
      { role: 'assistant', content: [{ type: 'text', text: `answer of ${id}` }] },
    ],
    createdAt,
    expiresAt: createdAt + retention,
  };
}

for (const engine of engines) {
  describe.runIf(engine.run)(`message thread store on ${engine.name}`, () => {
    let testDatabase: TestDatabase;
    let opened: { database: Kysely<DatabaseSchema>; dialect: DatabaseDialect };

    beforeEach(async () => {
      testDatabase = await engine.create();
      opened = createDatabase(testDatabase.url);
      await createGatewayStore({ database: opened }).migrate();
    });

    afterEach(async () => {
      await opened.database.destroy();
      await testDatabase.drop();
    });

    it('replays the turns up to the one continued, oldest first, for the owning key only', async () => {
      const store = createMessageThreadStore(opened.database);
      const first = turn('msg_1', null, start);
      const second = turn('msg_2', first, start + 10);
      const third = turn('msg_3', second, start + 20);
      for (const record of [first, second, third]) await store.saveTurn(record);

      const loaded = await store.loadThread('msg_2', 'key_a', start + 30);
      expect(loaded?.turns.map((record) => record.id)).toEqual(['msg_1', 'msg_2']);
      // Read back whole; each later turn moved the thread's expiry on to its own.
      expect(loaded?.turns[0]).toEqual({ ...first, expiresAt: third.expiresAt });
      expect((await store.loadThread('msg_3', 'key_a', start + 30))?.turns).toHaveLength(3);
      expect(await store.loadThread('msg_3', 'key_b', start + 30)).toBeUndefined();
      expect(await store.loadThread('msg_unknown', 'key_a', start + 30)).toBeUndefined();
    });

    it('keeps a thread as long as turns come, then lets all of it expire and removes it', async () => {
      const store = createMessageThreadStore(opened.database);
      const first = turn('msg_1', null, start);
      const second = turn('msg_2', first, start + 900);
      await store.saveTurn(first);
      await store.saveTurn(second);

      // Past the first turn's own expiry, the second turn has moved the thread's on: the whole history is there.
      expect((await store.loadThread('msg_2', 'key_a', start + 1_500))?.turns).toHaveLength(2);
      expect(await store.deleteExpired(start + 1_500)).toBe(0);
      expect(await store.loadThread('msg_2', 'key_a', start + 1_900)).toBeUndefined();
      expect(await store.deleteExpired(start + 1_900)).toBe(2);
    });
  });
}
