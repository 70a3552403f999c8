import { estimateTextTokens } from '../../core/token-estimates/estimate-text-tokens.js';

/**
 * Tokens of a legacy `prompt` or an embeddings `input`: a string by its UTF-8 length (see estimateTextTokens), each
 * string of a list likewise, a token id as one token and a list of token ids as its length.
 */
export function countPromptTokens(prompt: unknown): number {
  if (typeof prompt === 'string') return estimateTextTokens(prompt);
  if (!Array.isArray(prompt)) return 0;
  let tokens = 0;
  for (const item of prompt as unknown[]) {
    if (typeof item === 'string') tokens += estimateTextTokens(item);
    else if (typeof item === 'number') tokens += 1;
    else if (Array.isArray(item)) tokens += item.length;
  }
  return tokens;
}
