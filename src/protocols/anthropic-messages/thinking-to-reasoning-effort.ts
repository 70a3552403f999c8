import type { CanonicalReasoningEffort } from '../../core/canonical/canonical-request.js';
import { effortForThinkingBudget } from '../../core/canonical/reasoning-effort-budgets.js';

/** Anthropic's `thinking` setting, as parsed. */
export type MessagesThinking = { type: 'enabled'; budget_tokens: number } | { type: 'disabled' } | { type: 'adaptive' };

/**
 * The canonical effort for a `thinking` setting: a budget by the shared table (core/canonical/reasoning-effort-budgets), `disabled` → `none`, `adaptive` →
 * `medium` (the model decides; medium is the vendors' usual default), absent → null (the vendor's default).
 */
export function thinkingToReasoningEffort(thinking: MessagesThinking | undefined): CanonicalReasoningEffort | null {
  if (thinking === undefined) return null;
  switch (thinking.type) {
    case 'enabled':
      return effortForThinkingBudget(thinking.budget_tokens);
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
