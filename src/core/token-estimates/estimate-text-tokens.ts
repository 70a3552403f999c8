/**
 * UTF-8 bytes counted as one token before a request runs. The o200k tokenizer averages about 4.5 bytes per token
 * on English and about 3 on code, numbers and CJK text, so 3 rarely falls short of the real count.
 */
export const bytesPerEstimatedToken = 3;

/**
 * Tokens of a text estimated from its UTF-8 length, as vendors' own rate limiters estimate: holds and token
 * limits need a number before the request runs, and a tokenizer on the hot path would cost CPU on every request.
 */
export function estimateTextTokens(text: string): number {
  return Math.ceil(Buffer.byteLength(text, 'utf8') / bytesPerEstimatedToken);
}
