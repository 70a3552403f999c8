// The worker thread that counts o200k tokens (its rank table is 4.3 MB; a long piece can take tens of milliseconds):
// started by TokenizerWorkerClient when an answer must be counted, ended when idle, so its whole isolate's memory is
// returned (ADR 0011). Counts with the same function the main thread falls back to, so the numbers are identical.
import { parentPort } from 'node:worker_threads';
import { countTextTokens } from '../count-text-tokens.js';
import type { TokenizerWorkerRequest, TokenizerWorkerResponse } from './tokenizer-worker-messages.js';

const port = parentPort;
if (port === null) throw new Error('tokenizer-worker-thread runs only as a worker thread');

port.on('message', ({ id, texts }: TokenizerWorkerRequest) => {
  const response: TokenizerWorkerResponse = { id, counts: texts.map(countTextTokens) };
  port.postMessage(response);
});
