// Stored Responses API responses on SQLite and PostgreSQL (migration 0015): saved whole, read back only by their
// owner, deleted once; the vendor's id and the input items survive the round trip.
import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDatabase, type DatabaseDialect } from '../../src/storage/create-database.js';
import type { DatabaseSchema } from '../../src/storage/database-schema.js';
import { createGatewayStore } from '../../src/storage/kysely-gateway-store.js';
import { createResponsesStore } from '../../src/storage/kysely-responses-store.js';
import type { StoredResponseRecord } from '../../src/storage/responses-store.js';
import { storageTestEngines, type TestDatabase } from '../helpers/storage-test-engines.js';

const engines = storageTestEngines('stored-responses');

function storedResponse(id: string, userId: string): StoredResponseRecord {
  return {
    id,
    userId,
    apiKeyId: 'key_1',
    model: 'gpt-5',
    channelId: 'channel_1',
    vendorResponseId: 'resp_vendor_1',
    previousResponseId: null,
    inputItems: [{ id: 'msg_1', type: 'message', role: 'user', content: [{ type: 'input_text', text: 'héllo' }] }],
    response: { id, object: 'response', status: 'completed', output: [] },
    // Unix milliseconds beyond 32 bits: the column is a bigint on both engines.
    createdAt: 1_790_000_000_123,
  };
}

for (const engine of engines) {
  describe.runIf(engine.run)(`responses store on ${engine.name}`, () => {
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

    it('reads a saved response back whole for its owner only, and deletes it once', async () => {
      const store = createResponsesStore(opened.database);
      const record = storedResponse('resp_gateway_1', 'user_a');
      await store.save(record);
      expect(await store.find('resp_gateway_1', 'user_a')).toEqual(record);
      expect(await store.find('resp_gateway_1', 'user_b')).toBeUndefined();
      expect(await store.delete('resp_gateway_1', 'user_b')).toBe(false);
      expect(await store.delete('resp_gateway_1', 'user_a')).toBe(true);
      expect(await store.delete('resp_gateway_1', 'user_a')).toBe(false);
      expect(await store.find('resp_gateway_1', 'user_a')).toBeUndefined();
    });
  });
}
