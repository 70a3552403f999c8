import type { CanonicalRequest } from '../../core/canonical/canonical-request.js';
import { assertNever } from '../../core/assert-never.js';
import { GatewayError } from '../../core/gateway-error.js';
import { closeJsonSchemaObjects } from '../close-json-schema-objects.js';
import { planClaudeThinking } from '../plan-claude-thinking.js';
import type { VendorCall, VendorHttpRequest } from '../vendor-adapter.js';
import { readAnthropicApiVersion, type AnthropicApiVersion } from './anthropic-api-version.js';
import { convertAnthropicMessages } from './convert-anthropic-messages.js';
import { convertAnthropicTools } from './convert-anthropic-tools.js';
import { placeAnthropicCacheBreakpoints } from './place-anthropic-cache-breakpoints.js';

/** The output cap sent when neither the request nor the catalog gives one (Anthropic requires `max_tokens`). */
export const fallbackAnthropicMaxTokens = 4096;

/**
 * Builds `POST {base}/messages` from a canonical request. Parameter policy (docs/adr/0001):
 * - temperature/top_p/top_k are sent where the API version accepts them; for 2026-10-21 a temperature or top_p
 *   other than the default 1 is refused with a 400 naming it, the default is simply not sent (same answer).
 * - Anthropic's temperature range is 0..1: a higher value is refused rather than clamped.
 * - a JSON-schema output format maps to `output_config.format` under every API version (objects that do not say are
 *   closed: Claude takes closed objects only, closeJsonSchemaObjects); a JSON object, which Claude's JSON output
 *   cannot express, is a forced call of the gateway's `json_answer` tool whose input is the answer (the adapter turns
 *   it back into text), refused with client tools or thinking. Presence and frequency penalties are refused.
 * - a reasoning effort becomes `thinking` with a budget (planClaudeThinking: its rules and refusals).
 * - `seed` is dropped: OpenAI itself documents it as best-effort, and Anthropic has no equivalent.
 * - prompt caching: the gateway marks the last system block and the last message (placeAnthropicCacheBreakpoints).
 */
export function encodeAnthropicRequest(request: CanonicalRequest, call: VendorCall): VendorHttpRequest {
  const version = readAnthropicApiVersion(call.channel);
  refuseUnsupportedParameters(request);
  const thinkingPlan = planClaudeThinking(request, call.upstreamModelId, call.maxOutputTokens);
  const converted = convertAnthropicMessages(request.instructions, request.messages);
  const conversation = placeAnthropicCacheBreakpoints(converted.system, converted.messages);
  const body: Record<string, unknown> = {
    model: call.upstreamModelId,
    max_tokens: thinkingPlan.maxTokens ?? request.maxOutputTokens ?? call.maxOutputTokens ?? fallbackAnthropicMaxTokens,
    ...(conversation.system ? { system: conversation.system } : {}),
    messages: conversation.messages,
    ...samplingFields(request, version),
    ...(request.sampling.stopSequences?.length ? { stop_sequences: request.sampling.stopSequences } : {}),
    ...convertAnthropicTools(request),
    ...(thinkingPlan.thinking ? { thinking: thinkingPlan.thinking } : {}),
    ...outputConfig(request, thinkingPlan.thinking !== undefined),
    ...(request.endUserId ? { metadata: { user_id: request.endUserId } } : {}),
    ...(call.stream ? { stream: true } : {}),
  };
  return {
    url: `${call.channel.baseUrl}/messages`,
    headers: { ...version.headersFor(call.channel.secret), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  };
}

function refuseUnsupportedParameters(request: CanonicalRequest): void {
  if (request.sampling.presencePenalty) refuse('presence_penalty', 'This model does not support `presence_penalty`.');
  if (request.sampling.frequencyPenalty)
    refuse('frequency_penalty', 'This model does not support `frequency_penalty`.');
}

function samplingFields(request: CanonicalRequest, version: AnthropicApiVersion): Record<string, number> {
  const fields: Record<string, number> = {};
  const values = [
    ['temperature', request.sampling.temperature],
    ['top_p', request.sampling.topP],
  ] as const;
  for (const [name, value] of values) {
    if (value === null) continue;
    if (!version.acceptsSampling) {
      if (value !== 1)
        refuse(
          name,
          `This channel's Anthropic API version (${version.name}) does not accept \`${name}\`; omit it or send the default 1.`,
        );
      continue;
    }
    if (value > 1) refuse(name, `\`${name}\` must be between 0 and 1 for this model.`);
    fields[name] = value;
  }
  const topK = request.sampling.topK;
  if (topK !== undefined) {
    if (!version.acceptsSampling)
      refuse('top_k', `This channel's Anthropic API version (${version.name}) does not accept \`top_k\`.`);
    fields.top_k = topK;
  }
  return fields;
}

/** The tool a JSON-object answer is asked for with on Claude (its input is the answer); see answerToolAsText. */
export const claudeJsonAnswerToolName = 'json_answer';

function outputConfig(request: CanonicalRequest, thinks: boolean): Record<string, unknown> {
  const format = request.outputFormat;
  switch (format.type) {
    case 'text':
      return {};
    case 'json-schema':
      return { output_config: { format: { type: 'json_schema', schema: closeJsonSchemaObjects(format.schema) } } };
    case 'json-object':
      // Claude's JSON output takes a closed schema, so "any object" is a forced call of a tool whose input is the answer.
      if (request.tools.length > 0 || thinks)
        return refuse(
          'response_format',
          `\`response_format\` 'json_object' cannot be combined with ${thinks ? '`reasoning_effort`' : '`tools`'} on this model (Claude's JSON mode is a forced tool call); use 'json_schema' with a schema.`,
        );
      return {
        tools: [
          {
            name: claudeJsonAnswerToolName,
            description: 'Give your whole answer as this JSON object.',
            input_schema: { type: 'object' },
          },
        ],
        tool_choice: { type: 'tool', name: claudeJsonAnswerToolName },
      };
    default:
      return assertNever(format, 'output format');
  }
}

function refuse(param: string, message: string): never {
  throw new GatewayError('invalid_request_error', message, { param });
}
