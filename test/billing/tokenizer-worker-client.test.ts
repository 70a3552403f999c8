// The token counter behind settlement and Messages count_tokens: the o200k tokenizer runs in a worker thread that
// starts on demand, exits when idle, and never loses a count (a crashed worker is replaced, then the main thread counts).
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { countTextTokens, tokenizerCharacterLimit } from '../../src/billing/count-text-tokens.js';
import { TokenizerWorkerClient } from '../../src/billing/tokenizer-worker/tokenizer-worker-client.js';

const texts = [
  'hello there world',
  '日本語のテキストを数える',
  'emoji 👩‍👩‍👧‍👦🎉 and more 🚀',
  '',
  'x'.repeat(tokenizerCharacterLimit + 1),
];

let client: TokenizerWorkerClient | undefined;

afterEach(async () => {
  await client?.close();
  client = undefined;
});

describe('TokenizerWorkerClient', () => {
  it('counts like gpt-tokenizer in the main thread (ASCII, CJK, emoji, empty, and long texts by length)', async () => {
    client = new TokenizerWorkerClient();
    expect(await client.count(texts)).toEqual(texts.map(countTextTokens));
    expect(client.startedWorkers).toBe(1);
  });

  it('starts no worker when no text needs the tokenizer', async () => {
    client = new TokenizerWorkerClient();
    expect(await client.count(['', 'y'.repeat(tokenizerCharacterLimit + 1)])).toEqual([
      0,
      Math.ceil((tokenizerCharacterLimit + 1) / 3),
    ]);
    expect(client.startedWorkers).toBe(0);
  });

  it('ends its worker after the idle period and starts a new one for the next count', async () => {
    client = new TokenizerWorkerClient({ idleMs: 10 });
    expect(await client.count(['first count'])).toEqual([countTextTokens('first count')]);
    const first = client.runningWorker();
    expect(first).toBeDefined();
    await once(first!, 'exit');
    expect(client.runningWorker()).toBeUndefined();

    expect(await client.count(['second count'])).toEqual([countTextTokens('second count')]);
    expect(client.startedWorkers).toBe(2);
    expect(client.runningWorker()).not.toBe(first);
  });

  it('keeps its worker while counts keep coming within the idle period', async () => {
    client = new TokenizerWorkerClient({ idleMs: 60_000 });
    await client.count(['one']);
    await client.count(['two']);
    expect(client.startedWorkers).toBe(1);
  });

  it('retries a count on a fresh worker when its worker dies while the count is pending', async () => {
    const logger = { warn: vi.fn() };
    client = new TokenizerWorkerClient({ logger });
    const counted = client.count(texts);
    const worker = client.runningWorker();
    expect(worker).toBeDefined();
    await worker!.terminate();
    expect(await counted).toEqual(texts.map(countTextTokens));
    expect(client.startedWorkers).toBe(2);
    expect(logger.warn).not.toHaveBeenCalled();
  });

  it('counts in the main thread, with a warning, when no worker can start twice', async () => {
    const logger = { warn: vi.fn() };
    client = new TokenizerWorkerClient({
      logger,
      workerScript: new URL('./no-such-tokenizer-worker.mjs', import.meta.url),
    });
    expect(await client.count(texts)).toEqual(texts.map(countTextTokens));
    expect(client.startedWorkers).toBe(2);
    expect(logger.warn).toHaveBeenCalledTimes(1);
  });

  it('ends its worker on close and counts later texts in the main thread', async () => {
    const logger = { warn: vi.fn() };
    client = new TokenizerWorkerClient({ logger });
    await client.count(['before close']);
    const worker = client.runningWorker()!;
    const exited = once(worker, 'exit');
    await client.close();
    await exited;
    expect(client.runningWorker()).toBeUndefined();
    expect(await client.count(['after close'])).toEqual([countTextTokens('after close')]);
    expect(client.startedWorkers).toBe(1);
  });

  it('lets a process end while its worker idles (the worker is unreferenced once nothing is pending)', async () => {
    // With a ten-minute idle period, a referenced worker would keep the child running until the test times out.
    const script = [
      "const { TokenizerWorkerClient } = await import('./src/billing/tokenizer-worker/tokenizer-worker-client.ts');",
      'const client = new TokenizerWorkerClient({ idleMs: 600_000 });',
      "console.log(JSON.stringify(await client.count(['hello there world'])));",
    ].join('\n');
    // The kill after 25 s only keeps a failing run from leaving the child behind (the test's own limit is 30 s).
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '--eval', script],
      { timeout: 25_000 },
    );
    expect(JSON.parse(stdout)).toEqual([countTextTokens('hello there world')]);
  });
});
