import { hashPromptPrefix } from '../shared/hash-prompt-prefix.js';

/**
 * A Messages request's prompt prefix key for cache-sticky routing: a hash of its tools, system and first message
 * without their `cache_control` marks (the same in every turn of a conversation, wherever its breakpoints move);
 * undefined for a request without any `cache_control` (Anthropic caches nothing for it).
 */
export function messagesPromptPrefixKey(body: Record<string, unknown>): string | undefined {
  if (!JSON.stringify(body).includes('"cache_control"')) return undefined;
  const firstMessage: unknown = Array.isArray(body.messages) ? (body.messages as unknown[])[0] : undefined;
  return hashPromptPrefix([body.tools ?? null, body.system ?? null, firstMessage ?? null]);
}
