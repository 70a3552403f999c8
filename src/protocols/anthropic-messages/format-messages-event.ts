/** One Messages stream event as SSE: an `event:` line equal to its `type` (the SDK skips events without one), then its JSON. */
export function formatMessagesEvent(event: { type: string } & Record<string, unknown>): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}
