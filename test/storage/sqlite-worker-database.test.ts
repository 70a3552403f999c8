// The SQLite worker thread (ADR 0009): a file database's statements run in a worker that owns the connection; these
// pin what the stores rely on from it: Kysely semantics, transactions kept whole, error codes, lifecycle and crashes.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import SqliteDatabase from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sqlitePageCacheKibibytes } from '../../src/storage/open-sqlite-connection.js';
import {
  createSqliteWorkerDatabase,
  type SqliteWorkerDatabase,
} from '../../src/storage/sqlite-worker/create-sqlite-worker-database.js';

interface ItemsTable {
  id: string;
  /** a count stored as an integer */
  quantity: number;
  payload: Buffer | null;
}

interface TestSchema {
  items: ItemsTable;
}

describe('SQLite database in a worker thread', () => {
  let folder: string;
  let path: string;
  let opened: SqliteWorkerDatabase;
  let database: Kysely<TestSchema>;

  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'gateway-sqlite-worker-'));
    path = join(folder, 'gateway.db');
    opened = createSqliteWorkerDatabase(path);
    database = opened.database as unknown as Kysely<TestSchema>;
    await database.schema
      .createTable('items')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('quantity', 'integer', (column) => column.notNull())
      .addColumn('payload', 'blob')
      .execute();
  });

  afterEach(async () => {
    await database.destroy();
    await rm(folder, { recursive: true, force: true });
  });

  const itemIds = async () =>
    (await database.selectFrom('items').select('id').orderBy('id').execute()).map((row) => row.id);

  it('inserts, selects and updates through Kysely, with bigint parameters and blobs surviving the trip', async () => {
    const inserted = await database
      .insertInto('items')
      .values({ id: 'a', quantity: 1, payload: Buffer.from([1, 2, 3]) })
      .executeTakeFirst();
    expect(inserted.numInsertedOrUpdatedRows).toBe(1n);
    await database
      .insertInto('items')
      .values({ id: 'b', quantity: 2n as unknown as number, payload: null })
      .execute();
    const updated = await database.updateTable('items').set({ quantity: 5 }).where('id', '=', 'b').executeTakeFirst();
    expect(updated.numUpdatedRows).toBe(1n);
    const rows = await database.selectFrom('items').selectAll().orderBy('id').execute();
    expect(rows).toEqual([
      { id: 'a', quantity: 1, payload: Buffer.from([1, 2, 3]) },
      { id: 'b', quantity: 5, payload: null },
    ]);
    expect(Buffer.isBuffer(rows[0]?.payload)).toBe(true);
  });

  it('commits a transaction, and rolls one back when its callback throws', async () => {
    await database
      .transaction()
      .execute((transaction) =>
        transaction.insertInto('items').values({ id: 'kept', quantity: 1, payload: null }).execute(),
      );
    await expect(
      database.transaction().execute(async (transaction) => {
        await transaction.insertInto('items').values({ id: 'dropped', quantity: 1, payload: null }).execute();
        throw new Error('abandon');
      }),
    ).rejects.toThrow('abandon');
    expect(await itemIds()).toEqual(['kept']);
  });

  it('commits a transaction that read first although another process wrote meanwhile: the write lock is taken at its start', async () => {
    // Another process on the same file, as the CLI is beside a running gateway; it does not wait for locks.
    const otherProcess = new SqliteDatabase(path);
    otherProcess.pragma('busy_timeout = 0');
    try {
      let otherWrite: unknown;
      await database.transaction().execute(async (transaction) => {
        await transaction.selectFrom('items').select('id').execute();
        try {
          otherProcess.prepare("insert into items (id, quantity) values ('other', 1)").run();
        } catch (error) {
          otherWrite = error;
        }
        await transaction.insertInto('items').values({ id: 'mine', quantity: 1, payload: null }).execute();
      });
      // The other process waited for this transaction (here, with no busy timeout, it was told the file was busy);
      // a deferred transaction would have let it commit, then failed at its own insert with SQLITE_BUSY_SNAPSHOT.
      expect(otherWrite).toMatchObject({ code: 'SQLITE_BUSY' });
      expect(await itemIds()).toEqual(['mine']);
    } finally {
      otherProcess.close();
    }
  });

  it('keeps a unique violation an Error with the SQLite code and message the stores test', async () => {
    await database.insertInto('items').values({ id: 'same', quantity: 1, payload: null }).execute();
    const failure = await database
      .insertInto('items')
      .values({ id: 'same', quantity: 2, payload: null })
      .execute()
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(failure).toBeInstanceOf(Error);
    expect(failure).toMatchObject({
      code: 'SQLITE_CONSTRAINT_PRIMARYKEY',
      name: 'SqliteError',
      message: expect.stringContaining('UNIQUE constraint failed: items.id'),
    });
  });

  it("never runs another caller's statement inside an open transaction", async () => {
    let openGate = () => {};
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    let markStarted = () => {};
    const started = new Promise<void>((resolve) => (markStarted = resolve));
    const abandoned = database.transaction().execute(async (transaction) => {
      await transaction.insertInto('items').values({ id: 'in-transaction', quantity: 1, payload: null }).execute();
      markStarted();
      await gate;
      throw new Error('abandon');
    });
    await started;
    // Without the connection mutex this insert would run inside the transaction above and be rolled back with it.
    const outside = database.insertInto('items').values({ id: 'outside', quantity: 1, payload: null }).execute();
    await new Promise((resolve) => setImmediate(resolve));
    openGate();
    await expect(abandoned).rejects.toThrow('abandon');
    await outside;
    expect(await itemIds()).toEqual(['outside']);
  });

  it('writes a settlement batch only between transactions, never inside one', async () => {
    let openGate = () => {};
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    let markStarted = () => {};
    const started = new Promise<void>((resolve) => (markStarted = resolve));
    const transaction = database.transaction().execute(async (transaction) => {
      await transaction.insertInto('items').values({ id: 'first', quantity: 1, payload: null }).execute();
      markStarted();
      await gate;
    });
    await started;
    // Inside the open transaction the batch's own BEGIN would fail ("cannot start a transaction within a transaction").
    const batch = opened.writeSettlementBatch({ charges: [], usageLogs: [] }, Date.now());
    await new Promise((resolve) => setImmediate(resolve));
    openGate();
    await transaction;
    await expect(batch).resolves.toEqual([]);
  });

  it('prepares a statement once and reuses it for the same SQL', async () => {
    const select = () => database.selectFrom('items').select('id').where('id', '=', 'x').execute();
    await select();
    const before = await opened.worker.statistics();
    await select();
    await select();
    const after = await opened.worker.statistics();
    expect(after.prepares).toBe(before.prepares);
    await database.selectFrom('items').select('quantity').execute();
    expect((await opened.worker.statistics()).prepares).toBe(before.prepares + 1);
  });

  it("bounds the page cache at 2 MiB instead of better-sqlite3's 16 MB default, which a growing usage log fills", async () => {
    const { rows } = await sql<{ cache_size: number }>`PRAGMA cache_size`.execute(database);
    expect(rows).toEqual([{ cache_size: -sqlitePageCacheKibibytes }]);
    expect(sqlitePageCacheKibibytes).toBe(2048);
  });

  it('closes the connection and ends the thread on destroy', async () => {
    await database.insertInto('items').values({ id: 'a', quantity: 1, payload: null }).execute();
    const generation = opened.worker.start();
    expect(existsSync(`${path}-wal`)).toBe(true);
    await database.destroy();
    expect(opened.worker.isRunning(generation)).toBe(false);
    // SQLite removes the WAL file when the last connection to the database closes.
    expect(existsSync(`${path}-wal`)).toBe(false);
    await expect(database.selectFrom('items').selectAll().execute()).rejects.toThrow(
      'driver has already been destroyed',
    );
  });

  it('rejects pending queries when the worker dies, and reopens the file for the next one', async () => {
    await database.insertInto('items').values({ id: 'committed', quantity: 1, payload: null }).execute();
    const crash = opened.worker.request({ kind: 'exit' }, opened.worker.start());
    const pending = database.selectFrom('items').selectAll().execute();
    await expect(pending).rejects.toThrow(/SQLite worker thread stopped/);
    await expect(crash).rejects.toThrow(/SQLite worker thread stopped/);
    expect(await itemIds()).toEqual(['committed']);
  });

  it('fails a transaction whose worker died, without finishing it on the next worker', async () => {
    await expect(
      database.transaction().execute(async (transaction) => {
        await transaction.insertInto('items').values({ id: 'half', quantity: 1, payload: null }).execute();
        await opened.worker.request({ kind: 'exit' }, opened.worker.start()).catch(() => undefined);
        await transaction.insertInto('items').values({ id: 'other-half', quantity: 1, payload: null }).execute();
      }),
    ).rejects.toThrow(/SQLite worker thread stopped/);
    expect(await itemIds()).toEqual([]);
  });
});

describe('SQLite worker thread and process exit', () => {
  it('does not keep a process alive once its queries are answered', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'gateway-sqlite-worker-exit-'));
    try {
      const moduleUrl = new URL('../../src/storage/sqlite-worker/create-sqlite-worker-database.ts', import.meta.url)
        .href;
      const script = `const { createSqliteWorkerDatabase } = await import(${JSON.stringify(moduleUrl)});
        const { database } = createSqliteWorkerDatabase(${JSON.stringify(join(folder, 'cli.db'))});
        const result = await database.executeQuery({ sql: 'select 1 as one', parameters: [], query: { kind: 'RawNode' } });
        console.log(JSON.stringify(result.rows));`;
      // No destroy(): like a CLI command that finishes, the process must end by itself (the timeout only stops a hang).
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '--eval', script],
        { timeout: 20_000 },
      );
      expect(stdout.trim()).toBe('[{"one":1}]');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
