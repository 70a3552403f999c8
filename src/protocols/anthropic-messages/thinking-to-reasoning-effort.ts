import type { CanonicalReasoningEffort } from '../../core/canonical/canonical-request.js';

/**
 * Thinking budgets (tokens) and the reasoning effort they map to, smallest first: a budget below `belowTokens` maps to
 * `effort`. Anthropic's smallest budget is 1,024; the steps follow the budgets vendors give OpenAI's levels (Gemini's
 * low / medium / high: about 1k / 8k / 24k). docs/API.md ("Messages") shows the same table.
 */
export const thinkingBudgetEfforts: ReadonlyArray<{ belowTokens: number; effort: CanonicalReasoningEffort }> = [
  { belowTokens: 4_096, effort: 'low' },
  { belowTokens: 16_384, effort: 'medium' },
  { belowTokens: 32_768, effort: 'high' },
  { belowTokens: Number.POSITIVE_INFINITY, effort: 'xhigh' },
];

/** Anthropic's `thinking` setting, as parsed. */
export type MessagesThinking = { type: 'enabled'; budget_tokens: number } | { type: 'disabled' } | { type: 'adaptive' };

/**
 * The canonical effort for a `thinking` setting: a budget by the table above, `disabled` → `none`, `adaptive` →
 * `medium` (the model decides; medium is the vendors' usual default), absent → null (the vendor's default).
 */
export function thinkingToReasoningEffort(thinking: MessagesThinking | undefined): CanonicalReasoningEffort | null {
  if (thinking === undefined) return null;
  switch (thinking.type) {
    case 'enabled':
      return thinkingBudgetEfforts.find((step) => thinking.budget_tokens < step.belowTokens)?.effort ?? 'xhigh';
    case 'disabled':
      return 'none';
    case 'adaptive':
      return 'medium';
    default: {
      const unreachable: never = thinking;
      throw new Error(`Unhandled thinking setting ${JSON.stringify(unreachable)}`);
    }
  }
}
