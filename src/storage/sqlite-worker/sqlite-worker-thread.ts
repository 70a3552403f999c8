// The worker thread that owns a file database's SQLite connection: statements and whole settlement batches run here,
// off the gateway's event loop (ADR 0009). Started by SqliteWorkerClient; answers each request in arrival order.
import { parentPort, workerData } from 'node:worker_threads';
import type { Kysely } from 'kysely';
import { assertNever } from '../../core/assert-never.js';
import type { DatabaseSchema } from '../database-schema.js';
import { openSqliteConnection } from '../open-sqlite-connection.js';
import { writeSettlementBatch } from '../write-settlement-batch.js';
import { createCompiledStatements } from './create-compiled-statements.js';
import { createStatementCachingConnection } from './prepared-statement-cache.js';
import type {
  SerializedSqliteError,
  SqliteQueryOutcome,
  SqliteWorkerData,
  SqliteWorkerEnvelope,
  SqliteWorkerRequest,
  SqliteWorkerResponse,
} from './sqlite-worker-messages.js';

const port = parentPort;
if (port === null) throw new Error('sqlite-worker-thread runs only as a worker thread');

const { path } = workerData as SqliteWorkerData;
const cachingConnection = createStatementCachingConnection(openSqliteConnection(path));
// The batch writer builds its queries with Kysely here, over the same connection and statement cache. Loaded on the
// first batch: plain statements need no Kysely, and a worker that only migrates and reads starts faster without it.
let settlementDatabase: Promise<Kysely<DatabaseSchema>> | undefined;
// The batch's statements, compiled once and run on the same connection inside the batch's transaction (no await between).
const statements = createCompiledStatements(cachingConnection.database);

// Requests run one after another: a settlement batch awaits between statements, and nothing may run inside it.
let queue: Promise<void> = Promise.resolve();
port.on('message', (envelope: SqliteWorkerEnvelope) => {
  queue = queue.then(() => answer(envelope));
});

async function answer({ id, request }: SqliteWorkerEnvelope): Promise<void> {
  let response: SqliteWorkerResponse;
  try {
    response = { id, ok: true, result: await run(request) };
  } catch (error) {
    response = { id, ok: false, error: serializeError(error) };
  }
  port!.postMessage(response);
}

async function run(request: SqliteWorkerRequest): Promise<unknown> {
  switch (request.kind) {
    case 'query':
      return executeStatement(request.sql, request.parameters);
    case 'settle':
      settlementDatabase ??= openSettlementDatabase();
      return (await settlementDatabase)
        .transaction()
        .execute((transaction) => writeSettlementBatch(transaction, request.batch, request.now, { statements }));
    case 'statistics':
      return cachingConnection.statistics();
    case 'close':
      // Kysely's SqliteDriver.destroy closes the connection; without a batch written, close it directly.
      if (settlementDatabase === undefined) cachingConnection.database.close();
      else await (await settlementDatabase).destroy();
      return null;
    case 'exit':
      return process.exit(1);
    default:
      return assertNever(request, 'SQLite worker request');
  }
}

async function openSettlementDatabase(): Promise<Kysely<DatabaseSchema>> {
  const { Kysely, SqliteDialect } = await import('kysely');
  return new Kysely<DatabaseSchema>({ dialect: new SqliteDialect({ database: cachingConnection.database }) });
}

// The same as Kysely's SqliteConnection.executeQuery, on the cached statement.
function executeStatement(sql: string, parameters: readonly unknown[]): SqliteQueryOutcome {
  const statement = cachingConnection.database.prepare(sql);
  if (statement.reader) return { rows: statement.all(parameters) };
  const { changes, lastInsertRowid } = statement.run(parameters);
  return { rows: [], numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid) };
}

function serializeError(error: unknown): SerializedSqliteError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string'
    ? { name: error.name, message: error.message, code }
    : { name: error.name, message: error.message };
}
