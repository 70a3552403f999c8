import { createHash } from 'node:crypto';

/**
 * A short stable key for a prompt prefix (its parts as JSON without `cache_control` marks, hashed), for cache-sticky
 * routing; never the text itself.
 */
export function hashPromptPrefix(parts: unknown): string {
  const json = JSON.stringify(parts, (key, value: unknown) => (key === 'cache_control' ? undefined : value));
  return createHash('sha256').update(json).digest('base64url').slice(0, 32);
}

/**
 * The prompt prefix key of an OpenAI-style request: the client's `prompt_cache_key` when sent (Codex sends one per
 * session), else a hash of its instructions, leading system/developer messages and tools; undefined when it has none
 * of these (nothing stable to stick to).
 */
export function openAiPromptPrefixKey(fields: {
  promptCacheKey: unknown;
  instructions: unknown;
  items: readonly unknown[];
  tools: unknown;
}): string | undefined {
  if (typeof fields.promptCacheKey === 'string' && fields.promptCacheKey !== '') return `key:${fields.promptCacheKey}`;
  const leading: unknown[] = [];
  for (const item of fields.items) {
    const role = typeof item === 'object' && item !== null ? (item as { role?: unknown }).role : undefined;
    if (role !== 'system' && role !== 'developer') break;
    leading.push(item);
  }
  const instructions =
    typeof fields.instructions === 'string' && fields.instructions !== '' ? fields.instructions : null;
  if (instructions === null && leading.length === 0) return undefined;
  return `hash:${hashPromptPrefix([instructions, leading, fields.tools ?? null])}`;
}
