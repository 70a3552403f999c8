import type { Attributes } from '@opentelemetry/api';
import type { DispatchRequest } from '../dispatch/dispatch-request.js';
import { genAiAttributeNames as names } from '../observability/telemetry/gen-ai-attribute-names.js';

/**
 * The request parameters the GenAI conventions record (`gen_ai.request.max_tokens`, `temperature`, `top_p`, `top_k`,
 * `stop_sequences`, `seed`), where the request carries them parsed already: canonical requests (Responses, Messages)
 * and chat requests; other endpoints (embeddings, images) have none of them. Made only for a recording span.
 */
export function genAiRequestParameters(request: DispatchRequest): Attributes {
  const attributes: Attributes = {};
  if (request.kind === 'canonical') {
    const { maxOutputTokens, sampling } = request.canonical.request;
    setNumber(attributes, names.requestMaxTokens, maxOutputTokens);
    setNumber(attributes, names.requestTemperature, sampling.temperature);
    setNumber(attributes, names.requestTopP, sampling.topP);
    setNumber(attributes, names.requestTopK, sampling.topK);
    setNumber(attributes, names.requestSeed, sampling.seed);
    if (sampling.stopSequences && sampling.stopSequences.length > 0)
      attributes[names.requestStopSequences] = sampling.stopSequences;
    return attributes;
  }
  if (request.translation?.kind !== 'chat') return attributes;
  const chat = request.translation.request;
  setNumber(attributes, names.requestMaxTokens, chat.max_completion_tokens ?? chat.max_tokens);
  setNumber(attributes, names.requestTemperature, chat.temperature);
  setNumber(attributes, names.requestTopP, chat.top_p);
  setNumber(attributes, names.requestSeed, chat.seed);
  if (typeof chat.stop === 'string') attributes[names.requestStopSequences] = [chat.stop];
  else if (Array.isArray(chat.stop) && chat.stop.length > 0) attributes[names.requestStopSequences] = chat.stop;
  return attributes;
}

function setNumber(attributes: Attributes, name: string, value: number | null | undefined): void {
  if (typeof value === 'number') attributes[name] = value;
}
