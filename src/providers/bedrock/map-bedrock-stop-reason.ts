import type { CanonicalFinishReason } from '../../core/canonical/canonical-stream-part.js';

/** Maps a Converse `stopReason` to the canonical finish reason; an unknown value counts as a normal stop. */
export function mapBedrockStopReason(stopReason: string | undefined): CanonicalFinishReason {
  switch (stopReason) {
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool-calls';
    case 'guardrail_intervened':
    case 'content_filtered':
      return 'content-filter';
    default:
      // end_turn, stop_sequence, and values AWS may add later.
      return 'stop';
  }
}
