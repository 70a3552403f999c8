import { GatewayError } from '../../core/gateway-error.js';
import type { ChatCompletionRequest } from '../../core/openai-chat-request.js';

/**
 * OpenAI chat fields that change the answer and that no translated adapter maps yet: refused with a 400
 * naming the field rather than dropped. Fields that do not change the answer (`store`, `metadata`,
 * `service_tier`, `stream_options`) are not sent to translated vendors.
 */
const unmappedFields = ['audio', 'prediction', 'web_search_options', 'reasoning_effort', 'verbosity'] as const;

/** Throws a 400 for the first unmapped answer-changing field the request sets (and for non-text `modalities`). */
export function refuseUnmappedOpenAiFields(request: ChatCompletionRequest): void {
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
