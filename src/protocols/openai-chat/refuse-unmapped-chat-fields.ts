import { GatewayError } from '../../core/gateway-error.js';
import type { ChatCompletionRequest } from '../../core/openai-chat-request.js';
import { findPremiumChatField } from '../../core/premium-chat-fields.js';

/**
 * Chat fields that change the answer and that the canonical request cannot carry: refused with a 400 naming the
 * field when the request is translated, rather than dropped. Fields that do not change the answer (`store`,
 * `stream_options`, `service_tier` `auto`/`default`, `prompt_cache_key`, `safety_identifier`) are not translated.
 */
const unmappedFields = [
  'audio',
  'prediction',
  'web_search_options',
  'verbosity',
  'functions',
  'function_call',
] as const;

/**
 * Throws a 400 for the first field a translated channel cannot honour: a price-changing field (premium
 * `service_tier`, audio output, web search, predicted outputs, moderation: the gateway cannot price them on other
 * vendors), an unmapped answer-changing field, non-text `modalities`, `n` > 1, `logprobs` or `logit_bias`.
 */
export function refuseUnmappedChatFields(request: ChatCompletionRequest): void {
  const premiumField = findPremiumChatField(request);
  if (premiumField) {
    throw new GatewayError(
      'invalid_request_error',
      `\`${premiumField}\` is not supported for this model: it changes the price or the model.`,
      { param: premiumField },
    );
  }
  for (const field of unmappedFields) {
    const value = request[field];
    if (value !== undefined && value !== null) refuse(field, `\`${field}\` is not supported for this model.`);
  }
  const modalities = request.modalities;
  if (Array.isArray(modalities) && modalities.some((modality) => modality !== 'text'))
    refuse('modalities', 'This model answers with text only.');
  if (request.n != null && request.n > 1) refuse('n', 'This model returns one choice per request; `n` must be 1.');
  if (request.logprobs === true) refuse('logprobs', 'This model does not return log probabilities.');
  if (request.logit_bias && typeof request.logit_bias === 'object' && Object.keys(request.logit_bias).length > 0) {
    refuse('logit_bias', 'This model does not support `logit_bias`.');
  }
}

function refuse(param: string, message: string): never {
  throw new GatewayError('invalid_request_error', message, { param });
}
