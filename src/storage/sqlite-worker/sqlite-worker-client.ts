import type { Worker } from 'node:worker_threads';
import type {
  SqliteWorkerData,
  SqliteWorkerEnvelope,
  SqliteWorkerRequest,
  SqliteWorkerResponse,
  SqliteWorkerResults,
} from './sqlite-worker-messages.js';
import { locateWorkerScript } from '../../worker-threads/locate-worker-script.js';
import { startWorkerThread } from '../../worker-threads/start-worker-thread.js';
import type { PreparedStatementStatistics } from './prepared-statement-cache.js';
import { SqliteWorkerError } from './sqlite-worker-error.js';
import { mapDatabaseError } from '../map-database-error.js';
// Names the worker script as a dependency (erased at run time), so tools that follow imports compile it too:
// bench/compile-bench-processes.ts transpiles only the files the gateway imports.
import type {} from './sqlite-worker-thread.js';

/**
 * The writer's young generation, in MB (1 MB semi-spaces): a settlement batch outlives a scavenge however large the
 * young generation, so a larger one only holds more memory (ADR 0016).
 */
const sqliteWorkerYoungGenerationMb = 3;

interface PendingRequest {
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
}

/**
 * The main thread's end of the worker thread that owns a file database's connection. Starts the worker on first use,
 * pairs each request with its answer, keeps the process alive only while a request is pending, rejects pending
 * requests when the worker dies, and starts a fresh worker (reopening the file) for the next caller.
 */
export class SqliteWorkerClient {
  readonly #path: string;
  #worker: Worker | undefined;
  /** counts started workers; a connection handed out under one generation refuses to run on a later one */
  #generation = 0;
  #nextRequestId = 1;
  readonly #pending = new Map<number, PendingRequest>();
  #closed = false;

  /** `path` is the database file; nothing starts until the first request. */
  constructor(path: string) {
    this.#path = path;
  }

  /** Makes sure a worker runs and returns its generation, to pass with that holder's requests. */
  start(): number {
    if (this.#closed) throw new Error('The SQLite database is closed');
    if (this.#worker === undefined) this.#spawn();
    return this.#generation;
  }

  /** Whether the worker of `generation` still runs (false after it died or a newer one started). */
  isRunning(generation: number): boolean {
    return this.#worker !== undefined && generation === this.#generation;
  }

  /** Sends one request to the worker of `generation`; rejects at once if that worker is gone. */
  request<Kind extends SqliteWorkerRequest['kind']>(
    request: Extract<SqliteWorkerRequest, { kind: Kind }>,
    generation: number,
  ): Promise<SqliteWorkerResults[Kind]> {
    const worker = this.#worker;
    if (worker === undefined || generation !== this.#generation) {
      // A transaction begun on a worker that died must not continue, autocommitting, on a new one.
      return Promise.reject(
        new Error(
          'The SQLite worker thread stopped while this connection was in use; its open transaction was rolled back',
        ),
      );
    }
    const id = this.#nextRequestId++;
    const envelope: SqliteWorkerEnvelope = { id, request };
    return new Promise<SqliteWorkerResults[Kind]>((resolve, reject) => {
      // Posted first: a parameter the structured clone refuses throws here, and must not leave a pending entry behind.
      worker.postMessage(envelope);
      if (this.#pending.size === 0) worker.ref();
      this.#pending.set(id, { resolve: resolve as (result: unknown) => void, reject });
    });
  }

  /** The worker's prepared statement counters (starts the worker if needed). */
  statistics(): Promise<PreparedStatementStatistics> {
    return this.request({ kind: 'statistics' }, this.start());
  }

  /** Closes the connection in the worker and ends the thread; later requests are refused. */
  async close(): Promise<void> {
    if (this.#closed) return;
    const worker = this.#worker;
    try {
      if (worker !== undefined) await this.request({ kind: 'close' }, this.#generation);
    } finally {
      this.#closed = true;
      this.#worker = undefined;
      if (worker !== undefined) await worker.terminate();
    }
  }

  #spawn(): void {
    const data: SqliteWorkerData = { path: this.#path };
    // No Node flags: inherited ones would bring the main program's loader (tsx's `--import` starts a loader thread per
    // worker), inline code (`--input-type` fails in a worker) and profile file (`--cpu-prof-name` would overwrite the
    // main thread's).
    const worker = startWorkerThread(workerScript(), {
      workerData: data,
      execArgv: [],
      youngGenerationMb: sqliteWorkerYoungGenerationMb,
    });
    this.#generation += 1;
    this.#worker = worker;
    // An idle worker must not keep a CLI command (or a finished test) running; `request` refs it while busy.
    worker.unref();
    let failure: Error | undefined;
    worker.on('message', (response: SqliteWorkerResponse) => this.#settle(response));
    worker.on('error', (error) => {
      failure = error;
    });
    worker.on('exit', (exitCode) => {
      if (this.#worker === worker) this.#worker = undefined;
      const reason = failure === undefined ? `exit code ${exitCode}` : failure.message;
      this.#rejectAll(
        new Error(`The SQLite worker thread stopped (${reason}); the database is reopened on the next query`, {
          cause: failure,
        }),
      );
    });
  }

  #settle(response: SqliteWorkerResponse): void {
    const pending = this.#pending.get(response.id);
    if (pending === undefined) return;
    this.#pending.delete(response.id);
    if (this.#pending.size === 0) this.#worker?.unref();
    if (response.ok) pending.resolve(response.result);
    // A database file locked past the busy timeout (SQLITE_BUSY) or failing to write is a 503 for the request that needed it.
    else pending.reject(mapDatabaseError(new SqliteWorkerError(response.error)) as Error);
  }

  #rejectAll(error: Error): void {
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const request of pending) request.reject(error);
  }
}

/** The worker script beside this file in a build; from TypeScript sources (vitest, tsx) a bundle of it. */
function workerScript(): URL {
  return locateWorkerScript(import.meta.url, 'sqlite-worker-thread');
}
