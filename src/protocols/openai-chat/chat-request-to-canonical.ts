import type {
  CanonicalAssistantContent,
  CanonicalMessage,
  CanonicalOutputFormat,
  CanonicalReasoningEffort,
  CanonicalRequest,
  CanonicalSampling,
  CanonicalToolChoice,
  CanonicalUserContent,
} from '../../core/canonical/canonical-request.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { ChatCompletionRequest, ChatMessage, ChatTextPart } from '../../core/openai-chat-request.js';
import { assertNever } from '../../core/assert-never.js';
import { decodeChatToolCallId } from './chat-tool-call-id.js';
import { refuseUnmappedChatFields } from './refuse-unmapped-chat-fields.js';

/**
 * The validated chat body in the gateway's canonical terms, for channels that do not speak OpenAI chat. Each chat
 * message becomes one canonical message at the same index (so a vendor's 400 names the client's `messages[i]`);
 * what the canonical request cannot carry (`n` > 1, logprobs, audio, `file_id`, ...) is refused with a 400 naming it.
 * A tool call id the gateway showed with a vendor artefact in it (see encodeChatToolCallId) is split back into the
 * plain call id (on the call and its result) and the call's artefact.
 */
export function chatRequestToCanonical(request: ChatCompletionRequest): CanonicalRequest {
  refuseUnmappedChatFields(request);
  return {
    model: request.model,
    instructions: null,
    messages: request.messages.map((message, messageIndex) => convertMessage(message, `messages[${messageIndex}]`)),
    tools: (request.tools ?? []).map((tool) => ({
      name: tool.function.name,
      ...(tool.function.description ? { description: tool.function.description } : {}),
      parameters: tool.function.parameters ?? null,
      strict: tool.function.strict ?? null,
    })),
    toolChoice: convertToolChoice(request.tool_choice),
    parallelToolCalls: request.parallel_tool_calls ?? null,
    outputFormat: convertOutputFormat(request.response_format),
    reasoningEffort: (request.reasoning_effort as CanonicalReasoningEffort | null | undefined) ?? null,
    maxOutputTokens: request.max_completion_tokens ?? request.max_tokens ?? null,
    sampling: convertSampling(request),
    metadata: (request.metadata as Record<string, string> | null | undefined) ?? null,
    ...(request.user ? { endUserId: request.user } : {}),
    stream: request.stream === true,
  };
}

function convertMessage(message: ChatMessage, param: string): CanonicalMessage {
  switch (message.role) {
    case 'system':
    case 'developer':
      return { role: message.role, content: textPartsOf(message.content) };
    case 'user':
      return { role: 'user', content: userContent(message.content, param) };
    case 'assistant':
      return { role: 'assistant', content: assistantContent(message, param) };
    case 'tool':
      return {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            callId: decodeChatToolCallId(message.tool_call_id).callId,
            output: textPartsOf(message.content)
              .map((part) => part.text)
              .join(''),
          },
        ],
      };
    case 'function':
      throw new GatewayError(
        'invalid_request_error',
        "Messages with the deprecated role 'function' cannot be sent to this model; use 'tool' messages.",
        { param },
      );
    default:
      return assertNever(message, 'message role');
  }
}

function userContent(
  content: Extract<ChatMessage, { role: 'user' }>['content'],
  param: string,
): CanonicalUserContent[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return content.map((part, partIndex): CanonicalUserContent => {
    const partParam = `${param}.content[${partIndex}]`;
    if (part.type === 'text') return { type: 'text', text: String(part.text) };
    if (part.type === 'image_url') {
      const image = part.image_url as { url: unknown; detail?: 'auto' | 'low' | 'high' };
      return { type: 'image', url: String(image.url), ...(image.detail ? { detail: image.detail } : {}) };
    }
    if (part.type === 'file') {
      const file = (part.file ?? {}) as { file_data?: unknown; filename?: unknown };
      if (typeof file.file_data === 'string') {
        return {
          type: 'file',
          data: file.file_data,
          ...(typeof file.filename === 'string' ? { filename: file.filename } : {}),
        };
      }
    }
    throw new GatewayError(
      'invalid_request_error',
      `Content parts of type '${part.type}' cannot be sent to this model.`,
      { param: partParam },
    );
  });
}

function assistantContent(
  message: Extract<ChatMessage, { role: 'assistant' }>,
  param: string,
): CanonicalAssistantContent[] {
  const content: CanonicalAssistantContent[] = [];
  if (typeof message.content === 'string') {
    if (message.content) content.push({ type: 'text', text: message.content });
  } else if (Array.isArray(message.content)) {
    for (const part of message.content) {
      const text =
        part.type === 'text'
          ? String(part.text)
          : part.type === 'refusal' && typeof part.refusal === 'string'
            ? part.refusal
            : '';
      if (text) content.push({ type: 'text', text });
    }
  }
  for (const [callIndex, toolCall] of (message.tool_calls ?? []).entries()) {
    refuseNonObjectArguments(toolCall.function.arguments, `${param}.tool_calls[${callIndex}].function.arguments`);
    const { callId, artefact } = decodeChatToolCallId(toolCall.id);
    content.push({
      type: 'tool-call',
      callId,
      name: toolCall.function.name,
      arguments: toolCall.function.arguments,
      ...(artefact ? { artefact } : {}),
    });
  }
  return content;
}

/** Every translated vendor takes a call's arguments as an object: anything else is refused before translation. */
function refuseNonObjectArguments(argumentsText: string, param: string): void {
  if (argumentsText.trim() === '') return;
  try {
    const parsed: unknown = JSON.parse(argumentsText);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return;
  } catch {
    // refused below
  }
  throw new GatewayError('invalid_request_error', 'Tool call arguments must be a JSON object.', { param });
}

function textPartsOf(content: string | ChatTextPart[] | null): Array<{ type: 'text'; text: string }> {
  if (content === null) return [];
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return content.map((part) => ({ type: 'text', text: part.text }));
}

function convertToolChoice(choice: ChatCompletionRequest['tool_choice']): CanonicalToolChoice | null {
  if (choice === undefined) return null;
  if (typeof choice === 'object') return { type: 'tool', name: choice.function.name };
  return { type: choice };
}

function convertOutputFormat(format: ChatCompletionRequest['response_format']): CanonicalOutputFormat {
  if (!format || format.type === 'text') return { type: 'text' };
  if (format.type === 'json_object') return { type: 'json-object' };
  const { name, schema, strict, description } = format.json_schema;
  return {
    type: 'json-schema',
    name,
    schema: (schema as Record<string, unknown> | undefined) ?? { type: 'object' },
    strict: strict ?? null,
    ...(typeof description === 'string' ? { description } : {}),
  };
}

function convertSampling(request: ChatCompletionRequest): CanonicalSampling {
  const stop =
    request.stop == null
      ? []
      : (Array.isArray(request.stop) ? request.stop : [request.stop]).filter((sequence) => sequence.length > 0);
  return {
    temperature: request.temperature ?? null,
    topP: request.top_p ?? null,
    ...(stop.length > 0 ? { stopSequences: stop } : {}),
    ...(request.seed != null ? { seed: request.seed } : {}),
    ...(request.presence_penalty != null ? { presencePenalty: request.presence_penalty } : {}),
    ...(request.frequency_penalty != null ? { frequencyPenalty: request.frequency_penalty } : {}),
  };
}
