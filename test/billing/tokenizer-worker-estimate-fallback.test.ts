// The last resort of the token counter: when neither a worker nor the main thread can tokenize (the package cannot
// load), the texts are estimated from their length, so a settlement still gets a number.
import { describe, expect, it, vi } from 'vitest';
import { estimateTextTokens } from '../../src/core/token-estimates/estimate-text-tokens.js';
import { TokenizerWorkerClient } from '../../src/billing/tokenizer-worker/tokenizer-worker-client.js';

vi.mock('../../src/billing/count-text-tokens.js', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../src/billing/count-text-tokens.js')>()),
  countTextTokens: () => {
    throw new Error('gpt-tokenizer cannot be loaded');
  },
}));

describe('TokenizerWorkerClient without any working tokenizer', () => {
  it('estimates the texts from their length, with warnings', async () => {
    const logger = { warn: vi.fn() };
    const client = new TokenizerWorkerClient({
      logger,
      workerScript: new URL('./no-such-tokenizer-worker.mjs', import.meta.url),
    });
    const texts = ['hello there world', '日本語'];
    expect(await client.count(texts)).toEqual(texts.map(estimateTextTokens));
    expect(logger.warn).toHaveBeenCalledTimes(2);
    await client.close();
  });
});
