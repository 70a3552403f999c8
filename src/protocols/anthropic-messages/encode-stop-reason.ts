import type { CanonicalFinish } from '../../core/canonical/canonical-stream-part.js';
import type { MessagesStopReason } from './messages-wire-types.js';

/** The canonical finish as Anthropic's `stop_reason` and `stop_sequence`; a vendor that never said ends the turn. */
export function encodeStopReason(finish: CanonicalFinish | null): {
  stop_reason: MessagesStopReason;
  stop_sequence: string | null;
} {
  if (!finish) return { stop_reason: 'end_turn', stop_sequence: null };
  switch (finish.reason) {
    case 'stop':
      return finish.stopSequence === undefined
        ? { stop_reason: 'end_turn', stop_sequence: null }
        : { stop_reason: 'stop_sequence', stop_sequence: finish.stopSequence };
    case 'length':
      return { stop_reason: 'max_tokens', stop_sequence: null };
    case 'tool-calls':
      return { stop_reason: 'tool_use', stop_sequence: null };
    case 'content-filter':
      return { stop_reason: 'refusal', stop_sequence: null };
    default: {
      const unreachable: never = finish.reason;
      throw new Error(`Unhandled finish reason ${String(unreachable)}`);
    }
  }
}
