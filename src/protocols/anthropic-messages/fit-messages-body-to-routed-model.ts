import type { ModelLimits } from '../../routing/catalog-model.js';

/**
 * A Messages body for an Anthropic channel that maps the public model to another model the catalog knows, fitted to
 * that model as translated requests are (docs/API.md "Limits of the routed model"): `max_tokens` above its output cap is
 * lowered to it, and for a model without reasoning `thinking` and `output_config.effort` are dropped (Claude Code sends
 * them for the Claude name it was given, whatever the channel serves). Without such a mapping the body is the client's.
 */
export function fitMessagesBodyToRoutedModel(
  body: Record<string, unknown>,
  limits: ModelLimits | undefined,
): Record<string, unknown> {
  if (!limits) return body;
  const cap = limits.maxOutputTokens;
  const clampsOutput = cap !== undefined && typeof body.max_tokens === 'number' && body.max_tokens > cap;
  const outputConfig = body.output_config;
  const hasEffort = isObject(outputConfig) && 'effort' in outputConfig;
  const dropsReasoning = limits.reasoning === false && (body.thinking !== undefined || hasEffort);
  if (!clampsOutput && !dropsReasoning) return body;
  const fitted: Record<string, unknown> = { ...body };
  if (clampsOutput) fitted.max_tokens = cap;
  if (dropsReasoning) {
    delete fitted.thinking;
    if (isObject(outputConfig) && hasEffort) {
      const { effort: _effort, ...rest } = outputConfig;
      if (Object.keys(rest).length > 0) fitted.output_config = rest;
      else delete fitted.output_config;
    }
  }
  return fitted;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
