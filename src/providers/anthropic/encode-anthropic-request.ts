import { GatewayError } from '../../core/gateway-error.js';
import type { ChatCompletionRequest } from '../../core/openai-chat-request.js';
import type { VendorCall, VendorHttpRequest } from '../chat-adapter.js';
import { refuseUnmappedOpenAiFields } from '../translated-stream/refuse-unmapped-openai-fields.js';
import { readAnthropicApiVersion, type AnthropicApiVersion } from './anthropic-api-version.js';
import { convertAnthropicMessages } from './convert-anthropic-messages.js';
import { convertAnthropicTools } from './convert-anthropic-tools.js';

/** The output cap sent when neither the request nor the catalog gives one (Anthropic requires `max_tokens`). */
export const fallbackAnthropicMaxTokens = 4096;

/**
 * Builds `POST {base}/messages`. Parameter policy (docs/adr/0001 and the adapter's README comment):
 * - `temperature`/`top_p` are sent where the API version accepts them; for 2026-10-21 a value other than
 *   the default 1 is refused with a 400 naming it, the default is simply not sent (same answer).
 * - Anthropic's temperature range is 0..1: a higher value is refused rather than clamped.
 * - `response_format` json_schema maps to `output_config.format` (2026-10-21 only); json_object has no
 *   equivalent; both are refused otherwise. `n` > 1, logprobs, logit_bias and penalties are refused.
 * - `seed` is dropped: OpenAI itself documents it as best-effort, and Anthropic has no equivalent.
 * - Other answer-changing OpenAI fields no adapter maps (`reasoning_effort`, `audio`, ...) are refused.
 */
export function encodeAnthropicRequest(request: ChatCompletionRequest, call: VendorCall): VendorHttpRequest {
  const version = readAnthropicApiVersion(call.channel);
  refuseUnsupportedParameters(request);
  const conversation = convertAnthropicMessages(request.messages);
  const body: Record<string, unknown> = {
    model: call.upstreamModelId,
    max_tokens: request.max_completion_tokens ?? request.max_tokens ?? call.maxOutputTokens ?? fallbackAnthropicMaxTokens,
    ...(conversation.system ? { system: conversation.system } : {}),
    messages: conversation.messages,
    ...samplingFields(request, version),
    ...stopSequences(request.stop),
    ...convertAnthropicTools(request),
    ...outputConfig(request, version),
    ...(request.user ? { metadata: { user_id: request.user } } : {}),
    ...(call.stream ? { stream: true } : {}),
  };
  return {
    url: `${call.channel.baseUrl}/messages`,
    headers: { ...version.headersFor(call.channel.secret), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  };
}

function refuseUnsupportedParameters(request: ChatCompletionRequest): void {
  refuseUnmappedOpenAiFields(request);
  if (request.n != null && request.n > 1) refuse('n', 'This model returns one choice per request; `n` must be 1.');
  if (request.logprobs === true) refuse('logprobs', 'This model does not return log probabilities.');
  if (request.logit_bias && Object.keys(request.logit_bias).length > 0) refuse('logit_bias', 'This model does not support `logit_bias`.');
  if (request.presence_penalty) refuse('presence_penalty', 'This model does not support `presence_penalty`.');
  if (request.frequency_penalty) refuse('frequency_penalty', 'This model does not support `frequency_penalty`.');
}

function samplingFields(request: ChatCompletionRequest, version: AnthropicApiVersion): Record<string, number> {
  const fields: Record<string, number> = {};
  for (const name of ['temperature', 'top_p'] as const) {
    const value = request[name];
    if (value === null || value === undefined) continue;
    if (!version.acceptsSampling) {
      if (value !== 1) refuse(name, `This channel's Anthropic API version (${version.name}) does not accept \`${name}\`; omit it or send the default 1.`);
      continue;
    }
    if (value > 1) refuse(name, `\`${name}\` must be between 0 and 1 for this model.`);
    fields[name] = value;
  }
  return fields;
}

function stopSequences(stop: ChatCompletionRequest['stop']): { stop_sequences?: string[] } {
  if (stop === null || stop === undefined) return {};
  const sequences = (Array.isArray(stop) ? stop : [stop]).filter((sequence) => sequence.length > 0);
  return sequences.length > 0 ? { stop_sequences: sequences } : {};
}

function outputConfig(request: ChatCompletionRequest, version: AnthropicApiVersion): { output_config?: unknown } {
  const format = request.response_format;
  if (!format || format.type === 'text') return {};
  if (format.type === 'json_schema' && version.acceptsOutputFormat) {
    return { output_config: { format: { type: 'json_schema', schema: format.json_schema.schema ?? { type: 'object' } } } };
  }
  return refuse('response_format', `\`response_format\` '${format.type}' is not supported by this channel's Anthropic API version (${version.name}).`);
}

function refuse(param: string, message: string): never {
  throw new GatewayError('invalid_request_error', message, { param });
}
