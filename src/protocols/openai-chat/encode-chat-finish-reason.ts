import type { CanonicalFinish } from '../../core/canonical/canonical-stream-part.js';
import { assertNever } from '../../core/assert-never.js';
import type { ChatFinishReason } from './chat-completion-object.js';

/** A canonical finish as OpenAI's `finish_reason`; an answer whose vendor never said counts as `stop`. */
export function encodeChatFinishReason(finish: CanonicalFinish | null): ChatFinishReason {
  if (!finish) return 'stop';
  switch (finish.reason) {
    case 'stop':
    case 'length':
      return finish.reason;
    case 'tool-calls':
      return 'tool_calls';
    case 'content-filter':
      return 'content_filter';
    default:
      return assertNever(finish.reason, 'finish reason');
  }
}
