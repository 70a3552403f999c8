import type { FinishReason } from '../../core/chat-stream-part.js';

/** Maps a Converse `stopReason` to OpenAI's finish reason; an unknown value counts as a normal stop. */
export function mapBedrockStopReason(stopReason: string | undefined): FinishReason {
  switch (stopReason) {
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case 'guardrail_intervened':
    case 'content_filtered':
      return 'content_filter';
    default:
      // end_turn, stop_sequence, and values AWS may add later.
      return 'stop';
  }
}
