import { createRequire } from 'node:module';
import { estimateTextTokens } from './estimate-text-tokens.js';

/** Longer texts are estimated from their length instead of tokenized, so a huge answer never blocks the event loop. */
export const tokenizerCharacterLimit = 20_000;

type CountTokens = (text: string) => number;
let countTokens: CountTokens | undefined;

/**
 * Tokens of a generated text with the o200k tokenizer, for answers that arrived without the vendor's usage (an
 * abandoned stream). The tokenizer's tables take about 60 MB, so they are loaded on the first call only; the gateway
 * calls this in its tokenizer worker (TokenizerWorkerClient), and in the main thread only when that worker fails.
 */
export function countTextTokens(text: string): number {
  if (text.length === 0) return 0;
  if (text.length > tokenizerCharacterLimit) return estimateTextTokens(text);
  countTokens ??= (createRequire(import.meta.url)('gpt-tokenizer') as { countTokens: CountTokens }).countTokens;
  return countTokens(text);
}
