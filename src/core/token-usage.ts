/** Tokens a request consumed, as the vendor reported them. */
export interface TokenUsage {
  /** all input tokens, cached ones included */
  promptTokens: number;
  /** output tokens, reasoning included */
  completionTokens: number;
  totalTokens: number;
  /** input tokens served from the vendor's prompt cache */
  cachedPromptTokens: number;
  /** output tokens spent on hidden reasoning */
  reasoningTokens: number;
  /** input tokens written to the vendor's prompt cache (Anthropic cache creation), included in promptTokens; absent when the vendor reports none */
  cacheWritePromptTokens?: number;
  /** of cacheWritePromptTokens, those written with a 1-hour TTL (Anthropic `ephemeral_1h_input_tokens`); absent when none */
  cacheWriteOneHourPromptTokens?: number;
}
