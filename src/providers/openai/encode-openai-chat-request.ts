import type {
  CanonicalAssistantContent,
  CanonicalMessage,
  CanonicalRequest,
  CanonicalToolChoice,
  CanonicalUserContent,
} from '../../core/canonical/canonical-request.js';
import { assertNever } from '../../core/assert-never.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { VendorCall, VendorHttpRequest } from '../vendor-adapter.js';
import type { OpenAiWireQuirks } from './openai-wire-quirks.js';

/** One chat message as OpenAI's wire has it. */
type OpenAiChatMessage = Record<string, unknown>;

/**
 * Builds `POST …/chat/completions` from a canonical request for an OpenAI-wire channel (URL and auth from the
 * vendor's quirk hooks). A stream asks for `stream_options.include_usage`, so the bill never depends on the client.
 * Reasoning of earlier turns is not sent (chat has no field for it; artefacts of other vendors never leave);
 * `top_k` has no chat equivalent and is refused; metadata stays with the gateway.
 */
export function encodeOpenAiChatRequest(
  request: CanonicalRequest,
  call: VendorCall,
  quirks: OpenAiWireQuirks,
): VendorHttpRequest {
  if (request.sampling.topK !== undefined)
    throw new GatewayError('invalid_request_error', '`top_k` is not supported for this model.', { param: 'top_k' });
  const { sampling } = request;
  const body: Record<string, unknown> = {
    model: call.upstreamModelId,
    messages: [
      ...(request.instructions ? [{ role: 'system', content: request.instructions }] : []),
      ...request.messages.flatMap(convertMessage),
    ],
    ...(request.tools.length > 0
      ? {
          tools: request.tools.map((tool) => ({
            type: 'function',
            function: {
              name: tool.name,
              ...(tool.description ? { description: tool.description } : {}),
              ...(tool.parameters ? { parameters: tool.parameters } : {}),
              ...(tool.strict !== null ? { strict: tool.strict } : {}),
            },
          })),
        }
      : {}),
    ...(request.toolChoice ? { tool_choice: convertToolChoice(request.toolChoice) } : {}),
    ...(request.parallelToolCalls !== null && request.tools.length > 0
      ? { parallel_tool_calls: request.parallelToolCalls }
      : {}),
    ...responseFormat(request),
    // OpenAI's highest level is `xhigh`: Anthropic's `max` (Messages `output_config.effort`) asks for the highest.
    ...(request.reasoningEffort
      ? { reasoning_effort: request.reasoningEffort === 'max' ? 'xhigh' : request.reasoningEffort }
      : {}),
    ...(request.maxOutputTokens !== null ? { max_completion_tokens: request.maxOutputTokens } : {}),
    ...(sampling.temperature !== null ? { temperature: sampling.temperature } : {}),
    ...(sampling.topP !== null ? { top_p: sampling.topP } : {}),
    ...(sampling.stopSequences?.length ? { stop: sampling.stopSequences } : {}),
    ...(sampling.seed !== undefined ? { seed: sampling.seed } : {}),
    ...(sampling.presencePenalty !== undefined ? { presence_penalty: sampling.presencePenalty } : {}),
    ...(sampling.frequencyPenalty !== undefined ? { frequency_penalty: sampling.frequencyPenalty } : {}),
    ...(request.endUserId ? { user: request.endUserId } : {}),
    ...(call.stream ? { stream: true, stream_options: { include_usage: true } } : {}),
  };
  return {
    url: quirks.urlFor(call.channel, call.upstreamModelId, '/chat/completions'),
    headers: { ...quirks.authHeaders(call.channel), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  };
}

function convertMessage(message: CanonicalMessage): OpenAiChatMessage[] {
  switch (message.role) {
    case 'system':
    case 'developer':
      return [{ role: message.role, content: message.content.map((part) => part.text).join('') }];
    case 'user':
      return [{ role: 'user', content: message.content.map(convertUserPart) }];
    case 'assistant':
      return [assistantMessage(message.content)];
    case 'tool':
      // Chat has one message per tool result.
      return message.content.map((part) => ({
        role: 'tool',
        tool_call_id: part.callId,
        content:
          typeof part.output === 'string'
            ? part.output
            : part.output.map((outputPart) => (outputPart.type === 'text' ? outputPart.text : '')).join(''),
      }));
    default:
      return assertNever(message, 'message role');
  }
}

function convertUserPart(part: CanonicalUserContent): Record<string, unknown> {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image':
      return {
        type: 'image_url',
        image_url: { url: part.url, ...(part.detail && part.detail !== 'original' ? { detail: part.detail } : {}) },
      };
    case 'file':
      if (part.data === undefined)
        throw new GatewayError('invalid_request_error', 'Files must be sent inline for this model.', { param: 'file' });
      return { type: 'file', file: { file_data: part.data, ...(part.filename ? { filename: part.filename } : {}) } };
    default:
      return assertNever(part, 'user content part');
  }
}

function assistantMessage(content: readonly CanonicalAssistantContent[]): OpenAiChatMessage {
  const texts: string[] = [];
  const toolCalls: unknown[] = [];
  for (const part of content) {
    if (part.type === 'text') texts.push(part.text);
    else if (part.type === 'tool-call')
      toolCalls.push({ id: part.callId, type: 'function', function: { name: part.name, arguments: part.arguments } });
  }
  return {
    role: 'assistant',
    content: texts.length > 0 ? texts.join('') : null,
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
  };
}

function convertToolChoice(choice: CanonicalToolChoice): unknown {
  return choice.type === 'tool' ? { type: 'function', function: { name: choice.name } } : choice.type;
}

function responseFormat(request: CanonicalRequest): { response_format?: unknown } {
  const format = request.outputFormat;
  switch (format.type) {
    case 'text':
      return {};
    case 'json-object':
      return { response_format: { type: 'json_object' } };
    case 'json-schema':
      return {
        response_format: {
          type: 'json_schema',
          json_schema: {
            name: format.name,
            schema: format.schema,
            ...(format.strict !== null ? { strict: format.strict } : {}),
            ...(format.description ? { description: format.description } : {}),
          },
        },
      };
    default:
      return assertNever(format, 'output format');
  }
}
