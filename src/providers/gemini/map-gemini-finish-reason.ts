import type { FinishReason } from '../../core/chat-stream-part.js';

const contentFilterReasons = new Set(['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY', 'IMAGE_PROHIBITED_CONTENT', 'IMAGE_RECITATION']);

/**
 * Gemini's finishReason as OpenAI's: a candidate holding functionCall parts → tool_calls (Gemini has no
 * tool finish reason); MAX_TOKENS → length; safety-like reasons → content_filter; everything else
 * (STOP, OTHER, MALFORMED_FUNCTION_CALL, ...) → stop, the raw value kept for logs.
 */
export function mapGeminiFinishReason(finishReason: string | undefined, hasFunctionCall: boolean): FinishReason {
  if (hasFunctionCall) return 'tool_calls';
  if (finishReason === 'MAX_TOKENS') return 'length';
  if (finishReason && contentFilterReasons.has(finishReason)) return 'content_filter';
  return 'stop';
}
