import { countTokens } from 'gpt-tokenizer';

/** Longer texts are estimated from their length instead of tokenized, so a huge prompt never blocks the event loop. */
export const tokenizerCharacterLimit = 20_000;

/** Tokens of a text with the o200k tokenizer; beyond `tokenizerCharacterLimit` characters, `ceil(length / 3)`. */
export function countTextTokens(text: string): number {
  if (text.length === 0) return 0;
  if (text.length > tokenizerCharacterLimit) return Math.ceil(text.length / 3);
  return countTokens(text);
}
