import { openAiPromptPrefixKey } from '../shared/hash-prompt-prefix.js';

/** A chat request's prompt prefix key for cache-sticky routing: `prompt_cache_key`, else its system messages and tools. */
export function chatPromptPrefixKey(body: {
  prompt_cache_key?: string | null | undefined;
  messages: readonly unknown[];
  tools?: unknown;
}): string | undefined {
  return openAiPromptPrefixKey({
    promptCacheKey: body.prompt_cache_key,
    instructions: undefined,
    items: body.messages,
    tools: body.tools,
  });
}
