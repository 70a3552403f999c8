import type { CanonicalFinish } from '../../core/canonical/canonical-stream-part.js';
import type { GeminiFinishReason } from './gemini-wire-types.js';

/** Gemini's finishReason for a canonical finish: a tool call ends with STOP (Gemini has no tool finish reason). */
export function encodeGeminiFinishReason(finish: CanonicalFinish): GeminiFinishReason {
  switch (finish.reason) {
    case 'stop':
    case 'tool-calls':
      return 'STOP';
    case 'length':
      return 'MAX_TOKENS';
    case 'content-filter':
      return 'SAFETY';
    default: {
      const unreachable: never = finish.reason;
      throw new Error(`Unhandled finish reason ${String(unreachable)}`);
    }
  }
}
