import type { TokenUsage } from '../../core/token-usage.js';
import type { ChatCompletionObject } from '../chat-adapter.js';

/** OpenAI's `usage` object for chat completions. */
export type OpenAiChatUsage = ChatCompletionObject['usage'];

/** Encodes canonical token counts as OpenAI's chat `usage` object. */
export function encodeOpenAiUsage(usage: TokenUsage): OpenAiChatUsage {
  return {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.totalTokens,
    prompt_tokens_details: { cached_tokens: usage.cachedPromptTokens },
    completion_tokens_details: { reasoning_tokens: usage.reasoningTokens },
  };
}

/** A usage object for when the vendor reported nothing: zeros, so the response keeps OpenAI's shape. */
export const emptyTokenUsage: TokenUsage = { promptTokens: 0, completionTokens: 0, totalTokens: 0, cachedPromptTokens: 0, reasoningTokens: 0 };
