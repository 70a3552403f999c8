// PostgreSQL statements have a timeout, and one that runs past it is a 503 for the request, not a hang; migrations,
// which may run long on a large database, run with the timeout off and leave it on for everything after them.
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type CreatedDatabase } from '../../src/storage/create-database.js';
import { createGatewayStore } from '../../src/storage/kysely-gateway-store.js';
import { StoreUnavailableError } from '../../src/storage/store-unavailable-error.js';
import {
  createPostgresTestDatabaseUrl,
  shouldRunPostgresTests,
  type PostgresTestDatabase,
} from '../helpers/postgres-test-database.js';

/** The advisory lock Kysely's Migrator takes on PostgreSQL (postgres-adapter.js). */
const kyselyMigrationLockId = '3853314791062309107';

let testDatabase: PostgresTestDatabase | undefined;
let opened: CreatedDatabase;

describe.runIf(shouldRunPostgresTests())('PostgreSQL statement timeouts', () => {
  beforeAll(async () => {
    testDatabase = await createPostgresTestDatabaseUrl();
    if (!testDatabase) throw new Error('GATEWAY_TEST_POSTGRES_URL is not set');
    opened = createDatabase(testDatabase.url, { settings: { statementTimeoutMs: 100, connectTimeoutMs: 2_000 } });
  });

  afterAll(async () => {
    await opened?.database.destroy();
    await testDatabase?.drop();
  });

  it('migrates with the statement timeout off, then keeps it for every other statement', async () => {
    // Another node holds Kysely's migration lock for longer than the statement timeout: this node must wait for it.
    const otherNode = new pg.Client({ connectionString: testDatabase!.url });
    await otherNode.connect();
    await otherNode.query('begin');
    await otherNode.query(`select pg_advisory_xact_lock(${kyselyMigrationLockId})`);
    const released = new Promise((resolve) => setTimeout(resolve, 600)).then(async () => {
      await otherNode.query('commit');
      await otherNode.end();
    });
    await createGatewayStore({ database: opened }).migrate();
    await released;
    const slow = sql`select pg_sleep(0.3)`.execute(opened.database);
    await expect(slow).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(slow).rejects.toMatchObject({
      status: 503,
      headers: { 'retry-after': '1' },
      cause: expect.objectContaining({ code: '57014' }),
    });
  });

  it('answers a database that cannot be reached with StoreUnavailableError within the connect timeout', async () => {
    const unreachable = createDatabase('postgres://postgres@127.0.0.1:1/postgres', {
      settings: { statementTimeoutMs: 1_000, connectTimeoutMs: 500 },
      report: () => undefined,
    });
    try {
      await expect(sql`select 1`.execute(unreachable.database)).rejects.toBeInstanceOf(StoreUnavailableError);
    } finally {
      await unreachable.database.destroy();
    }
  });
});
