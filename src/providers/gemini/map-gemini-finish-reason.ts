import type { CanonicalFinishReason } from '../../core/canonical/canonical-stream-part.js';

const contentFilterReasons = new Set([
  'SAFETY',
  'RECITATION',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'IMAGE_SAFETY',
  'IMAGE_PROHIBITED_CONTENT',
  'IMAGE_RECITATION',
]);

/**
 * Gemini's finishReason as the canonical one: an answer holding functionCall parts → tool-calls (Gemini has no
 * tool finish reason); MAX_TOKENS → length; safety-like reasons → content-filter; everything else
 * (STOP, OTHER, MALFORMED_FUNCTION_CALL, ...) → stop, the raw value kept for logs.
 */
export function mapGeminiFinishReason(
  finishReason: string | undefined,
  hasFunctionCall: boolean,
): CanonicalFinishReason {
  if (hasFunctionCall) return 'tool-calls';
  if (finishReason === 'MAX_TOKENS') return 'length';
  if (finishReason && contentFilterReasons.has(finishReason)) return 'content-filter';
  return 'stop';
}
