import type { CanonicalRequest } from '../core/canonical/canonical-request.js';
import { GatewayError } from '../core/gateway-error.js';
import type { ModelLimits } from '../routing/catalog-model.js';
import type { RoutableChannel } from '../routing/routing-table.js';
import type { DispatchRequest } from './dispatch-request.js';

/**
 * The limits of the model a channel actually sends the request to: the catalog entry of the model the channel maps
 * the public id to when the catalog knows it, else the public model's own entry. The output cap is never above the
 * public model's either (what clients were offered, and what a hold may be priced from).
 */
export function routedModelLimits(request: DispatchRequest, channel: RoutableChannel): ModelLimits {
  const mapped = channel.upstreamModelLimits?.get(request.modelId);
  if (!mapped) return { maxOutputTokens: request.maxOutputTokens, reasoning: request.modelReasoning };
  return { maxOutputTokens: smallerCap(mapped.maxOutputTokens, request.maxOutputTokens), reasoning: mapped.reasoning };
}

/** The smaller of two output caps, either of which may be unknown. */
function smallerCap(first: number | undefined, second: number | undefined): number | undefined {
  if (first === undefined) return second;
  if (second === undefined) return first;
  return Math.min(first, second);
}

/**
 * The output cap an adapter may send on its own (a vendor that requires `max_tokens`, a thinking budget's room): the
 * public model's, which the request's hold is priced from, lowered to the routed model's; never raised above it.
 */
export function gatewayChosenOutputCap(request: DispatchRequest, limits: ModelLimits): number | undefined {
  const publicCap = request.maxOutputTokens;
  return publicCap === undefined ? undefined : smallerCap(publicCap, limits.maxOutputTokens);
}

/**
 * A translated request fitted to the routed model before any adapter encodes it, so no vendor is sent more than its
 * model takes (docs/API.md "Limits of the routed model"):
 * - an output cap above the model's is lowered to it (the model can write no more anyway, so no answer changes);
 * - a reasoning control for a model the catalog says cannot reason is dropped where the client's protocol makes it
 *   optional (Messages `thinking`, `output_config.effort`: Claude Code sends them to every model), and `none` is met
 *   by not reasoning; otherwise (chat `reasoning_effort`, Responses `reasoning.effort`) it is a 400 naming it, as
 *   OpenAI answers for such a model.
 * Unknown limits change nothing: the vendor judges.
 */
export function fitRequestToRoutedModel(request: CanonicalRequest, limits: ModelLimits): CanonicalRequest {
  const cap = limits.maxOutputTokens;
  const clampsOutput = cap !== undefined && request.maxOutputTokens !== null && request.maxOutputTokens > cap;
  const effort = request.reasoningEffort;
  const dropsReasoning = limits.reasoning === false && effort !== null;
  if (dropsReasoning && effort !== 'none' && request.reasoningOptional !== true) {
    throw new GatewayError(
      'invalid_request_error',
      '`reasoning_effort` is not supported with this model: it does not reason. Omit the parameter.',
      { param: 'reasoning_effort' },
    );
  }
  if (!clampsOutput && !dropsReasoning) return request;
  return {
    ...request,
    ...(clampsOutput ? { maxOutputTokens: cap } : {}),
    ...(dropsReasoning ? { reasoningEffort: null } : {}),
  };
}
