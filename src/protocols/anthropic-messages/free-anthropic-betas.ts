/**
 * `anthropic-beta` values forwarded to every Anthropic channel without an operator's say: none changes what a token
 * costs or bills anything beyond the tokens the vendor reports (which billing prices). Every other beta
 * (`context-1m-2025-08-07`, billed at a long-context premium; `files-api-…`, `code-execution-…`, ...) must be enabled
 * per channel with a price ratio (`anthropicBetas`, `premiumPriceRatio`), else the request is refused.
 */
export const freeAnthropicBetas: ReadonlySet<string> = new Set([
  // Claude Code names itself with it; no effect on price.
  'claude-code-20250219',
  // Thinking between tool calls: thinking tokens are output tokens, billed as reported.
  'interleaved-thinking-2025-05-14',
  // Tool input streamed in finer pieces.
  'fine-grained-tool-streaming-2025-05-14',
  // Fewer output tokens for tool calls.
  'token-efficient-tools-2025-02-19',
  // Prompt caching (generally available now): reads and writes are billed by their reported counts.
  'prompt-caching-2024-07-31',
  // The 1-hour cache TTL: its writes have their own price; a channel with `cacheTtlOneHour=off` refuses the TTL itself.
  'extended-cache-ttl-2025-04-11',
  // Clearing old tool results and thinking: fewer input tokens.
  'context-management-2025-06-27',
  // A higher output cap: output is billed per token and held by `max_tokens`.
  'output-128k-2025-02-19',
  // Structured outputs (`output_config.format`, strict tools): billed by the tokens reported. @ai-sdk/anthropic sends it
  // with every tool list for the Claude models it knows.
  'structured-outputs-2025-11-13',
  // `output_config.effort`: how much the model thinks, billed as the output tokens it reports.
  'effort-2025-11-24',
  // A lossy progress estimate on thinking deltas (`estimated_tokens`); `usage.output_tokens` stays what is billed.
  'thinking-token-count-2026-05-13',
  // Client-side tool search (`defer_loading` tools, `tool_reference` results): fewer input tokens; the server tool
  // search tools it also unlocks are refused at parse (server tools).
  'advanced-tool-use-2025-11-20',
  // `role: "system"` messages inside `messages` (Claude Code's 5.5 models): more prompt text, billed as input tokens.
  'per-turn-control-2026-07-01',
  // `tool_addition`/`tool_removal` blocks in system messages: which tools are offered, billed as input tokens.
  'mid-conversation-tool-changes-2026-07-01',
]);
