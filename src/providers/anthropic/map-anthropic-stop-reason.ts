import type { FinishReason } from '../../core/chat-stream-part.js';

/**
 * Anthropic's `stop_reason` as OpenAI's finish reason. `pause_turn` (a server-tool loop paused) has no
 * OpenAI equivalent and maps to `stop`; the raw value is kept for logs. Unknown values map to `stop` too.
 */
export function mapAnthropicStopReason(stopReason: string | null | undefined): FinishReason {
  switch (stopReason) {
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case 'refusal':
      return 'content_filter';
    default:
      return 'stop';
  }
}
