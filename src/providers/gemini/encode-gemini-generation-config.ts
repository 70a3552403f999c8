import { GatewayError } from '../../core/gateway-error.js';
import type { ChatCompletionRequest } from '../../core/openai-chat-request.js';

/**
 * OpenAI sampling and output fields as Gemini's `generationConfig`: temperature, top_p, max tokens,
 * stop, n (candidateCount; non-streamed only, since a translated stream carries one choice), seed,
 * penalties, and response_format (json_object → JSON MIME type; json_schema → plus `responseJsonSchema`).
 * logprobs and logit_bias are refused with a 400 naming them.
 */
export function encodeGeminiGenerationConfig(request: ChatCompletionRequest, stream: boolean): Record<string, unknown> | undefined {
  if (request.logprobs === true) refuse('logprobs', 'This model does not return log probabilities through the gateway.');
  if (request.logit_bias && Object.keys(request.logit_bias).length > 0) refuse('logit_bias', 'This model does not support `logit_bias`.');
  const config: Record<string, unknown> = {};
  setIfPresent(config, 'temperature', request.temperature);
  setIfPresent(config, 'topP', request.top_p);
  setIfPresent(config, 'maxOutputTokens', request.max_completion_tokens ?? request.max_tokens);
  setIfPresent(config, 'seed', request.seed);
  setIfPresent(config, 'presencePenalty', request.presence_penalty);
  setIfPresent(config, 'frequencyPenalty', request.frequency_penalty);
  if (request.n != null && request.n > 1) {
    if (stream) refuse('n', 'Streamed answers carry one choice; `n` must be 1 when `stream` is true.');
    config.candidateCount = request.n;
  }
  const stop = request.stop == null ? [] : (Array.isArray(request.stop) ? request.stop : [request.stop]).filter((sequence) => sequence.length > 0);
  if (stop.length > 0) config.stopSequences = stop;
  const format = request.response_format;
  if (format?.type === 'json_object') config.responseMimeType = 'application/json';
  if (format?.type === 'json_schema') {
    config.responseMimeType = 'application/json';
    if (format.json_schema.schema !== undefined) config.responseJsonSchema = format.json_schema.schema;
  }
  return Object.keys(config).length > 0 ? config : undefined;
}

function setIfPresent(config: Record<string, unknown>, field: string, value: number | null | undefined): void {
  if (value !== null && value !== undefined) config[field] = value;
}

function refuse(param: string, message: string): never {
  throw new GatewayError('invalid_request_error', message, { param });
}
