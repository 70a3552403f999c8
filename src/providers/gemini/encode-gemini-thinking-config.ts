import type { CanonicalReasoningEffort } from '../../core/canonical/canonical-request.js';
import { thinkingBudgetForEffort } from '../../core/canonical/reasoning-effort-budgets.js';
import { GatewayError } from '../../core/gateway-error.js';

/** Gemini's `generationConfig.thinkingConfig` as the gateway sends it. */
export type GeminiThinkingConfig = { thinkingBudget: number } | { thinkingLevel: 'LOW' | 'HIGH' };

/** Gemini models that cannot think (1.x and 2.0, except the 2.0 thinking previews): an effort is refused for them. */
const nonThinkingGeminiModel = /gemini-(1\.|2\.0-(?!.*thinking))/;
/** Gemini 3 models take a thinking level rather than a budget. */
const levelGeminiModel = /gemini-3/;
/** Gemini 2.5 Pro thinks always (no budget 0) and takes budgets up to 32,768; the other 2.5 models up to 24,576. */
const alwaysThinkingGeminiModel = /gemini-2\.5-pro/;

/**
 * A reasoning effort as Gemini's thinking setting for a model (docs/API.md "Reasoning effort"); `budgetTokens` is the
 * client's own budget (a Gemini-native client's `thinkingBudget`), sent instead of the effort's:
 * - Gemini 3: `thinkingLevel` LOW for minimal / low, HIGH for medium and above (the levels every Gemini 3 model
 *   takes); `none` is a 400, since Gemini 3 cannot stop thinking.
 * - Gemini 2.5 and names the gateway does not recognise: `thinkingBudget` from the shared effort table, capped at the
 *   model's largest budget; `none` is budget 0 (a 400 for 2.5 Pro, which cannot stop thinking).
 * - Gemini 1.x and 2.0: a 400 naming the parameter.
 * Thought summaries (`includeThoughts`) are not asked for: the client asked how hard to think, not to see it.
 */
export function encodeGeminiThinkingConfig(
  effort: CanonicalReasoningEffort | null,
  modelId: string,
  budgetTokens?: number,
): GeminiThinkingConfig | undefined {
  if (effort === null) return undefined;
  if (nonThinkingGeminiModel.test(modelId))
    refuse('This model does not support `reasoning_effort` (thinking needs Gemini 2.5 or later).');
  if (levelGeminiModel.test(modelId)) {
    if (effort === 'none')
      refuse("Gemini 3 models always think: `reasoning_effort` 'none' is not supported; use 'low'.");
    return { thinkingLevel: effort === 'minimal' || effort === 'low' ? 'LOW' : 'HIGH' };
  }
  const alwaysThinks = alwaysThinkingGeminiModel.test(modelId);
  if (effort === 'none') {
    if (alwaysThinks) refuse("Gemini 2.5 Pro always thinks: `reasoning_effort` 'none' is not supported; use 'low'.");
    return { thinkingBudget: 0 };
  }
  const largestBudget = alwaysThinks ? 32_768 : 24_576;
  return { thinkingBudget: Math.min(budgetTokens ?? thinkingBudgetForEffort(effort), largestBudget) };
}

function refuse(message: string): never {
  throw new GatewayError('invalid_request_error', message, { param: 'reasoning_effort' });
}
