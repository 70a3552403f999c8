import { createRequire } from 'node:module';
import { estimateTextTokens } from '../core/token-estimates/estimate-text-tokens.js';
import { O200kRankTable } from './o200k-rank-table.js';
import { O200kTokenCounter } from './o200k-token-counter.js';

/** Longer texts are estimated from their length instead of tokenized, so a huge answer never blocks the event loop. */
export const tokenizerCharacterLimit = 20_000;

type CountTokens = (text: string) => number;
let countTokens: CountTokens | undefined;

/**
 * Tokens of a generated text with the o200k tokenizer, for answers that arrived without the vendor's usage (an
 * abandoned stream). The tokenizer's tables take about 4.3 MB, loaded on the first call only; the gateway
 * calls this in its tokenizer worker (TokenizerWorkerClient), and in the main thread only when that worker fails.
 */
export function countTextTokens(text: string): number {
  if (text.length === 0) return 0;
  if (text.length > tokenizerCharacterLimit) return estimateTextTokens(text);
  countTokens ??= createO200kCounter();
  return countTokens(text);
}

/**
 * The o200k counter over the rank table, with gpt-tokenizer's split pattern. Loaded with `require` on the first count, so
 * the package stays out of the main thread's module cache while the worker counts (ADR 0011).
 */
function createO200kCounter(): CountTokens {
  const { O200K_TOKEN_SPLIT_REGEX } = createRequire(import.meta.url)(
    'gpt-tokenizer/encodingParams/constants',
  ) as typeof import('gpt-tokenizer/encodingParams/constants');
  const counter = new O200kTokenCounter(O200kRankTable.read(), O200K_TOKEN_SPLIT_REGEX);
  return (text) => counter.count(text);
}
