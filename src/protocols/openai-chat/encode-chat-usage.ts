import type { CanonicalUsage } from '../../core/canonical/canonical-usage.js';
import { emptyCanonicalUsage } from '../../core/canonical/canonical-usage.js';
import type { ChatUsageObject } from './chat-completion-object.js';

/** Canonical usage as OpenAI's chat `usage` (zeros when the vendor reported none, so the answer keeps OpenAI's shape). */
export function encodeChatUsage(usage: CanonicalUsage | null): ChatUsageObject {
  const counts = usage ?? emptyCanonicalUsage();
  return {
    prompt_tokens: counts.inputTokens,
    completion_tokens: counts.outputTokens,
    total_tokens: counts.inputTokens + counts.outputTokens,
    prompt_tokens_details: { cached_tokens: counts.cacheReadInputTokens },
    completion_tokens_details: { reasoning_tokens: counts.reasoningTokens },
  };
}
