import type { CanonicalFinishReason } from '../../core/canonical/canonical-stream-part.js';

/**
 * Anthropic's `stop_reason` as the canonical finish reason. `pause_turn` (a server-tool loop paused) has no
 * equivalent and maps to `stop`; the raw value is kept for logs. Unknown values map to `stop` too.
 */
export function mapAnthropicStopReason(stopReason: string | null | undefined): CanonicalFinishReason {
  switch (stopReason) {
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool-calls';
    case 'refusal':
      return 'content-filter';
    default:
      return 'stop';
  }
}
