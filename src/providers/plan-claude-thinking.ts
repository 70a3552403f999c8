import type { CanonicalRequest } from '../core/canonical/canonical-request.js';
import { thinkingBudgetForEffort } from '../core/canonical/reasoning-effort-budgets.js';
import { GatewayError } from '../core/gateway-error.js';

/** Anthropic's smallest thinking budget (tokens). */
export const minimumClaudeThinkingBudget = 1_024;

/** Tokens left for the visible answer when the gateway, not the client, chooses `max_tokens` for a thinking request. */
export const claudeAnswerTokensBesideThinking = 4_096;

/** What a Claude request (Anthropic Messages or Bedrock Converse) carries for a reasoning effort. */
export interface ClaudeThinkingPlan {
  /** Anthropic's `thinking` setting; absent when the client asked for no effort or for `none` */
  thinking?: { type: 'enabled'; budget_tokens: number };
  /** the `max_tokens` to send with it (tokens, thinking included); absent: whatever the encoder would send anyway */
  maxTokens?: number;
}

/**
 * Claude models that cannot think (before Claude 3.7): a reasoning effort is refused for them rather than dropped.
 * Names the gateway does not recognise (operators' mappings, newer models) are sent: the vendor judges them.
 */
const nonThinkingClaudeModel = /claude-(instant|2([.-]|$)|3-(opus|sonnet|haiku|5-))/;

/**
 * A reasoning effort as Claude's `thinking: {type: 'enabled', budget_tokens}` (budget from the shared effort table).
 * Anthropic's rules, kept here so both Claude vendors follow them (docs/adr/0007):
 * - the budget is at least 1,024 and below `max_tokens`. A client's own output cap is never raised (it is the most the
 *   client asked to pay for): the budget is lowered to fit it, and a cap of 1,024 or less is a 400 naming it. Without a
 *   client cap, `max_tokens` is the catalog's output cap, or the budget plus 4,096 answer tokens when the catalog has none.
 * - thinking refuses a temperature other than 1, `top_k`, a `top_p` below 0.95 and a forced tool choice: each is a 400
 *   naming the parameter (dropping it would silently change the answer).
 * - `none` sends no thinking (Claude's default is not to think).
 */
export function planClaudeThinking(
  request: CanonicalRequest,
  modelId: string,
  catalogMaxTokens: number | undefined,
): ClaudeThinkingPlan {
  const effort = request.reasoningEffort;
  if (effort === null || effort === 'none') return {};
  if (nonThinkingClaudeModel.test(modelId))
    refuse(
      'reasoning_effort',
      'This model does not support `reasoning_effort` (extended thinking needs Claude 3.7 or later).',
    );
  refuseSamplingThinkingForbids(request);
  const wantedBudget = thinkingBudgetForEffort(effort);
  const clientCap = request.maxOutputTokens;
  if (clientCap !== null && clientCap <= minimumClaudeThinkingBudget) {
    refuse(
      'max_tokens',
      `\`max_tokens\` must be above ${minimumClaudeThinkingBudget} with \`reasoning_effort\`: this model's smallest thinking budget is ${minimumClaudeThinkingBudget} tokens.`,
    );
  }
  const maxTokens = clientCap ?? catalogMaxTokens ?? wantedBudget + claudeAnswerTokensBesideThinking;
  const budget = Math.min(wantedBudget, maxTokens - 1);
  if (budget < minimumClaudeThinkingBudget)
    refuse(
      'reasoning_effort',
      'This model does not support `reasoning_effort`: its output cap is below the smallest thinking budget.',
    );
  return { thinking: { type: 'enabled', budget_tokens: budget }, maxTokens };
}

function refuseSamplingThinkingForbids(request: CanonicalRequest): void {
  const { temperature, topP, topK } = request.sampling;
  if (temperature !== null && temperature !== 1)
    refuse('temperature', '`temperature` other than 1 cannot be combined with `reasoning_effort` on this model.');
  if (topK !== undefined) refuse('top_k', '`top_k` cannot be combined with `reasoning_effort` on this model.');
  if (topP !== null && topP < 0.95)
    refuse('top_p', '`top_p` below 0.95 cannot be combined with `reasoning_effort` on this model.');
  const toolChoice = request.toolChoice?.type;
  if (toolChoice === 'required' || toolChoice === 'tool')
    refuse(
      'tool_choice',
      'A forced `tool_choice` cannot be combined with `reasoning_effort` on this model; use `auto`.',
    );
}

function refuse(param: string, message: string): never {
  throw new GatewayError('invalid_request_error', message, { param });
}
