import { GatewayError } from '../../core/gateway-error.js';
import type { ChatCompletionRequest } from '../../core/openai-chat-request.js';
import { findPremiumChatField } from '../../core/premium-chat-fields.js';

/**
 * OpenAI chat fields that change the answer and that no translated adapter maps yet: refused with a 400 naming the
 * field rather than dropped. Fields that do not change the answer (`store`, `metadata`, `stream_options`,
 * `service_tier` `auto`/`default`, `prompt_cache_key`, `safety_identifier`) are not sent to translated vendors.
 */
const unmappedFields = ['audio', 'prediction', 'web_search_options', 'reasoning_effort', 'verbosity', 'functions', 'function_call'] as const;

/**
 * Throws a 400 for the first field a translated vendor (Anthropic, Gemini, Bedrock) cannot honour: a price-changing
 * field (premium `service_tier`, audio output, web search, predicted outputs, moderation: the gateway cannot price
 * them on these vendors), an unmapped answer-changing field, or non-text `modalities`.
 */
export function refuseUnmappedOpenAiFields(request: ChatCompletionRequest): void {
  const premiumField = findPremiumChatField(request);
  if (premiumField) {
    throw new GatewayError('invalid_request_error', `\`${premiumField}\` is not supported for this model: it changes the price or the model.`, { param: premiumField });
  }
  for (const field of unmappedFields) {
    const value = request[field];
    if (value !== undefined && value !== null) {
      throw new GatewayError('invalid_request_error', `\`${field}\` is not supported for this model.`, { param: field });
    }
  }
  const modalities = request.modalities;
  if (Array.isArray(modalities) && modalities.some((modality) => modality !== 'text')) {
    throw new GatewayError('invalid_request_error', 'This model answers with text only.', { param: 'modalities' });
  }
}
