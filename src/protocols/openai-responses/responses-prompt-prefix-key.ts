import { openAiPromptPrefixKey } from '../shared/hash-prompt-prefix.js';

/**
 * A Responses request's prompt prefix key for cache-sticky routing: `prompt_cache_key`, else its instructions,
 * leading system/developer input items and tools.
 */
export function responsesPromptPrefixKey(body: Record<string, unknown>): string | undefined {
  return openAiPromptPrefixKey({
    promptCacheKey: body.prompt_cache_key,
    instructions: body.instructions,
    items: Array.isArray(body.input) ? body.input : [],
    tools: body.tools,
  });
}
