import type { CanonicalReasoningEffort } from '../../core/canonical/canonical-request.js';
import { effortForThinkingBudget } from '../../core/canonical/reasoning-effort-budgets.js';
import type { messagesEffortLevels } from './messages-request-schema.js';

/** Anthropic's `thinking` setting, as parsed. */
export type MessagesThinking = { type: 'enabled'; budget_tokens: number } | { type: 'disabled' } | { type: 'adaptive' };

/** Anthropic's `output_config.effort`, as parsed. */
export type MessagesEffort = (typeof messagesEffortLevels)[number];

/**
 * The canonical effort for a `thinking` setting and an `output_config.effort` (docs/API.md "Reasoning effort"):
 * - `thinking: disabled` → `none` whatever the effort (the client asked the model not to think; on translated vendors
 *   the effort has nothing else to control);
 * - otherwise an `output_config.effort` is the effort as named (Anthropic's levels are the canonical scale's upper
 *   steps): Claude Code's `thinking: adaptive` with `effort: high` is `high`;
 * - without one, a budget by the shared table (core/canonical/reasoning-effort-budgets), `adaptive` → `medium` (the
 *   model decides; medium is the vendors' usual default), absent → null (the vendor's default).
 */
export function thinkingToReasoningEffort(
  thinking: MessagesThinking | undefined,
  effort?: MessagesEffort | null,
): CanonicalReasoningEffort | null {
  if (thinking?.type === 'disabled') return 'none';
  if (effort) return effort;
  if (thinking === undefined) return null;
  switch (thinking.type) {
    case 'enabled':
      return effortForThinkingBudget(thinking.budget_tokens);
    case 'adaptive':
      return 'medium';
    default: {
      const unreachable: never = thinking;
      throw new Error(`Unhandled thinking setting ${JSON.stringify(unreachable)}`);
    }
  }
}
