import type { Worker } from 'node:worker_threads';
import { locateWorkerScript } from '../../worker-threads/locate-worker-script.js';
import { startWorkerThread } from '../../worker-threads/start-worker-thread.js';
import { countTextTokens, tokenizerCharacterLimit } from '../count-text-tokens.js';
import { estimateTextTokens } from '../../core/token-estimates/estimate-text-tokens.js';
import type { TokenizerWorkerRequest, TokenizerWorkerResponse } from './tokenizer-worker-messages.js';
// Names the worker script as a dependency (erased at run time), so tools that follow imports compile it too:
// bench/compile-bench-processes.ts transpiles only the files the gateway imports.
import type {} from './tokenizer-worker-thread.js';

/** How long a worker with nothing to count lives on, in milliseconds, before it exits and frees its tables. */
export const defaultTokenizerIdleMs = 30_000;

/** A worker that fails this many times for one count (crash, failed start) leaves that count to the main thread. */
const attemptsPerCount = 2;
/** The tokenizer's young generation, in MB: 4 MB semi-spaces, as the main thread's (ADR 0003, ADR 0016). */
const tokenizerWorkerYoungGenerationMb = 12;

/** Where the client reports a count it had to make in the main thread (a pino logger fits). */
export interface TokenizerWarningLogger {
  warn(details: object, message: string): void;
}

/** How a TokenizerWorkerClient runs; every field has a default. */
export interface TokenizerWorkerOptions {
  /** milliseconds a worker with nothing pending stays up (default 30 s) */
  idleMs?: number;
  /** receives the warning when counts fall back to the main thread */
  logger?: TokenizerWarningLogger;
  /** the worker script; tests pass a broken one to see the fallback */
  workerScript?: URL;
}

interface PendingCount {
  texts: string[];
  resolve: (counts: number[]) => void;
  /** workers this count was sent to so far */
  attempts: number;
  /** the worker it waits on now */
  worker: Worker | undefined;
}

/**
 * Counts o200k tokens in a worker thread started on the first count and ended after `idleMs` without work, so the
 * tokenizer's tables never stay in the gateway's heap. An idle worker does not keep the process alive. A count whose
 * worker crashes or cannot start is retried once on a fresh worker, then made in the main thread (same numbers): a
 * count always resolves, so no bill is lost.
 */
export class TokenizerWorkerClient {
  readonly #idleMs: number;
  readonly #logger: TokenizerWarningLogger | undefined;
  readonly #workerScript: URL | undefined;
  #worker: Worker | undefined;
  /** counts started workers (tests and diagnosis) */
  #startedWorkers = 0;
  #nextRequestId = 1;
  readonly #pending = new Map<number, PendingCount>();
  #idleTimer: NodeJS.Timeout | undefined;
  #closed = false;

  /** Nothing starts until the first count. */
  constructor(options: TokenizerWorkerOptions = {}) {
    this.#idleMs = options.idleMs ?? defaultTokenizerIdleMs;
    this.#logger = options.logger;
    this.#workerScript = options.workerScript;
  }

  /**
   * Token counts of `texts`, in order, in one message to the worker. Empty texts count 0 and texts over
   * `tokenizerCharacterLimit` are estimated from their length here, without a worker (as `countTextTokens` does).
   */
  count(texts: readonly string[]): Promise<number[]> {
    const counts = new Array<number>(texts.length).fill(0);
    const tokenized: string[] = [];
    const positions: number[] = [];
    texts.forEach((text, position) => {
      if (text.length > tokenizerCharacterLimit) counts[position] = estimateTextTokens(text);
      else if (text.length > 0) {
        tokenized.push(text);
        positions.push(position);
      }
    });
    if (tokenized.length === 0) return Promise.resolve(counts);
    return new Promise<number[]>((resolve) => {
      const id = this.#nextRequestId++;
      const pending: PendingCount = { texts: tokenized, resolve, attempts: 0, worker: undefined };
      this.#pending.set(id, pending);
      this.#send(id, pending);
    }).then((workerCounts) => {
      positions.forEach((position, index) => {
        counts[position] = workerCounts[index] ?? 0;
      });
      return counts;
    });
  }

  /** The running worker, or undefined while none runs (tests and diagnosis). */
  runningWorker(): Worker | undefined {
    return this.#worker;
  }

  /** How many workers this client has started (tests and diagnosis). */
  get startedWorkers(): number {
    return this.#startedWorkers;
  }

  /** Ends the worker; counts still pending, and any later count, are made in the main thread. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#idleTimer);
    const worker = this.#worker;
    this.#worker = undefined;
    if (worker !== undefined) await worker.terminate();
  }

  #send(id: number, pending: PendingCount): void {
    pending.attempts += 1;
    if (this.#closed) {
      this.#countInMainThread(id, pending, new Error('the token counter is closed'));
      return;
    }
    try {
      const worker = this.#startWorker();
      pending.worker = worker;
      clearTimeout(this.#idleTimer);
      // Busy: the answer must arrive even if nothing else keeps the process running (a CLI command, a test).
      worker.ref();
      const request: TokenizerWorkerRequest = { id, texts: pending.texts };
      worker.postMessage(request);
    } catch (error) {
      this.#retryOrCountHere(id, pending, error instanceof Error ? error : new Error(String(error)));
    }
  }

  #startWorker(): Worker {
    if (this.#worker !== undefined) return this.#worker;
    // No Node flags: inherited ones would bring the main program's loader (tsx's `--import`) and profile file into the worker.
    const worker = startWorkerThread(
      this.#workerScript ?? locateWorkerScript(import.meta.url, 'tokenizer-worker-thread'),
      { execArgv: [], youngGenerationMb: tokenizerWorkerYoungGenerationMb },
    );
    this.#startedWorkers += 1;
    this.#worker = worker;
    worker.unref();
    let failure: Error | undefined;
    worker.on('message', (response: TokenizerWorkerResponse) => this.#answer(response));
    worker.on('error', (error) => {
      failure = error;
    });
    worker.on('exit', (exitCode) => {
      if (this.#worker === worker) this.#worker = undefined;
      const reason = failure ?? new Error(`the tokenizer worker stopped (exit code ${exitCode})`);
      for (const [id, pending] of [...this.#pending]) {
        if (pending.worker === worker) this.#retryOrCountHere(id, pending, reason);
      }
    });
    return worker;
  }

  #answer(response: TokenizerWorkerResponse): void {
    const pending = this.#pending.get(response.id);
    if (pending === undefined) return;
    this.#pending.delete(response.id);
    pending.resolve(response.counts);
    if (this.#pending.size === 0) this.#becomeIdle();
  }

  /** Nothing pending: the worker may no longer keep the process alive, and exits unless work comes within `idleMs`. */
  #becomeIdle(): void {
    const worker = this.#worker;
    if (worker === undefined) return;
    worker.unref();
    clearTimeout(this.#idleTimer);
    this.#idleTimer = setTimeout(() => {
      if (this.#pending.size > 0 || this.#worker !== worker) return;
      this.#worker = undefined;
      void worker.terminate();
    }, this.#idleMs);
    this.#idleTimer.unref();
  }

  #retryOrCountHere(id: number, pending: PendingCount, error: Error): void {
    pending.worker = undefined;
    if (pending.attempts < attemptsPerCount && !this.#closed) this.#send(id, pending);
    else this.#countInMainThread(id, pending, error);
  }

  #countInMainThread(id: number, pending: PendingCount, error: Error): void {
    this.#pending.delete(id);
    this.#logger?.warn(
      { err: error, texts: pending.texts.length },
      'counting tokens in the main thread: the tokenizer worker failed twice or is closed',
    );
    pending.resolve(countOrEstimate(pending.texts, this.#logger));
    if (this.#pending.size === 0) this.#becomeIdle();
  }
}

/** The texts' tokens with the tokenizer here; by their length if even that fails (the package cannot load): a bill is never lost. */
function countOrEstimate(texts: readonly string[], logger: TokenizerWarningLogger | undefined): number[] {
  try {
    return texts.map(countTextTokens);
  } catch (error) {
    logger?.warn({ err: error }, 'the tokenizer failed in the main thread too; estimating tokens from the text length');
    return texts.map(estimateTextTokens);
  }
}
