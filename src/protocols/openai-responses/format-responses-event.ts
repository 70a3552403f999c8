import type { ResponsesStreamEvent } from './responses-wire-types.js';

/** One event as SSE: an `event:` line equal to its `type`, then its JSON (never a `[DONE]` sentinel). */
export function formatResponsesEvent(event: ResponsesStreamEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}
