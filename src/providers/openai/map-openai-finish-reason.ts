import type { CanonicalFinishReason } from '../../core/canonical/canonical-stream-part.js';

/** OpenAI's `finish_reason` as the canonical one; `function_call` (legacy) counts as tool calls, unknown values as stop. */
export function mapOpenAiFinishReason(finishReason: string | null | undefined): CanonicalFinishReason {
  switch (finishReason) {
    case 'length':
      return 'length';
    case 'tool_calls':
    case 'function_call':
      return 'tool-calls';
    case 'content_filter':
      return 'content-filter';
    default:
      return 'stop';
  }
}
