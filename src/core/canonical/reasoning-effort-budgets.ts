import type { CanonicalReasoningEffort } from './canonical-request.js';

/** One step of the reasoning-effort scale, in tokens of thinking budget. */
export interface ReasoningEffortBudget {
  effort: Exclude<CanonicalReasoningEffort, 'none'>;
  /** the thinking budget (tokens) sent for this effort to vendors that take a budget (Claude, Gemini 2.5) */
  budgetTokens: number;
  /** a client's thinking budget (tokens) below this, and not below an earlier step's, reads back as this effort */
  belowTokens: number;
}

/**
 * The one table between OpenAI's effort levels and thinking budgets, both ways (docs/API.md "Reasoning effort").
 * low / medium / high are the budgets Google gives OpenAI's levels (1,024 / 8,192 / 24,576); `minimal` is Anthropic's
 * smallest budget (1,024, so it reads back as `low`); `xhigh` and `max` double upwards. Reading back, a budget of
 * 32,768 or more is `xhigh`, the highest level OpenAI knows, so `max` is never read back.
 */
export const reasoningEffortBudgets: readonly ReasoningEffortBudget[] = [
  { effort: 'minimal', budgetTokens: 1_024, belowTokens: 1_024 },
  { effort: 'low', budgetTokens: 1_024, belowTokens: 4_096 },
  { effort: 'medium', budgetTokens: 8_192, belowTokens: 16_384 },
  { effort: 'high', budgetTokens: 24_576, belowTokens: 32_768 },
  { effort: 'xhigh', budgetTokens: 32_768, belowTokens: Number.POSITIVE_INFINITY },
  { effort: 'max', budgetTokens: 65_536, belowTokens: Number.POSITIVE_INFINITY },
];

/** The thinking budget (tokens) for an effort other than `none`. */
export function thinkingBudgetForEffort(effort: Exclude<CanonicalReasoningEffort, 'none'>): number {
  const step = reasoningEffortBudgets.find((candidate) => candidate.effort === effort);
  if (!step) throw new Error(`No thinking budget for reasoning effort ${effort}`);
  return step.budgetTokens;
}

/** The effort a client's thinking budget (tokens) means. */
export function effortForThinkingBudget(budgetTokens: number): CanonicalReasoningEffort {
  return reasoningEffortBudgets.find((step) => budgetTokens < step.belowTokens)?.effort ?? 'xhigh';
}
