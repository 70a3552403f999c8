import { createRequire } from 'node:module';
import { estimateTextTokens } from './estimate-text-tokens.js';
import { readO200kRanks } from './read-o200k-ranks.js';

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
  countTokens ??= createO200kCounter();
  return countTokens(text);
}

/**
 * A special token's name in generated text (`<|endoftext|>`) is text the model wrote: counted as text. gpt-tokenizer's
 * default refuses it with an error, which crashed the tokenizer worker twice and then loaded the tables in the main
 * thread, only to fall back to an estimate.
 */
const specialTokensAsText = { disallowedSpecial: new Set<string>() };

/** gpt-tokenizer's o200k counter, as its main entry builds it, over ranks read from its data file (`readO200kRanks`). */
function createO200kCounter(): CountTokens {
  const { GptEncoding } = createRequire(import.meta.url)('gpt-tokenizer/GptEncoding') as typeof import('gpt-tokenizer/GptEncoding');
  const { countTokens: countO200kTokens } = GptEncoding.getEncodingApi('o200k_base', readO200kRanks);
  return (text) => countO200kTokens(text, specialTokensAsText);
}
