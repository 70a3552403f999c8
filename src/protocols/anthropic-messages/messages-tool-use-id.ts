import { createHash } from 'node:crypto';

/** What Anthropic (and so every Claude client that replays the conversation to it) accepts as a `tool_use` id. */
const safeToolUseId = /^[a-zA-Z0-9_-]+$/;

/**
 * A vendor's tool call id as a `tool_use` id Anthropic accepts. Safe ids are kept; others (Kimi's `functions.Read:0`)
 * become `toolu_` + the id's safe characters + a short hash of the whole id, so two different ids never collide. The
 * client echoes the new id in its `tool_result`, and both travel on together, so no mapping needs to be kept.
 */
export function toMessagesToolUseId(callId: string): string {
  if (safeToolUseId.test(callId)) return callId;
  const hash = createHash('sha256').update(callId).digest('hex').slice(0, 12);
  return `toolu_${callId.replace(/[^a-zA-Z0-9_-]/g, '_')}_${hash}`;
}
