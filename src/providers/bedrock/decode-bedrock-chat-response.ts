import { randomUUID } from 'node:crypto';
import { GatewayError } from '../../core/gateway-error.js';
import type { TokenUsage } from '../../core/token-usage.js';
import type { ChatCompletionObject, VendorCall } from '../chat-adapter.js';
import type { BedrockConverseResponseBody } from './bedrock-converse-types.js';
import { mapBedrockStopReason } from './map-bedrock-stop-reason.js';
import { parseBedrockUsage } from './parse-bedrock-usage.js';

type AssistantMessage = ChatCompletionObject['choices'][number]['message'];

/**
 * Maps a Converse answer to a `chat.completion`. Converse answers carry no response id, so one is generated.
 * Reasoning blocks have no place in OpenAI's message and are not shown.
 */
export function decodeBedrockChatResponse(bodyText: string, call: VendorCall): { completion: ChatCompletionObject; usage: TokenUsage | undefined } {
  const body = parseBody(bodyText);
  const message: AssistantMessage = { role: 'assistant', content: null, refusal: null };
  const texts: string[] = [];
  const toolCalls: NonNullable<AssistantMessage['tool_calls']> = [];
  for (const block of body.output?.message?.content ?? []) {
    if ('text' in block && typeof block.text === 'string') texts.push(block.text);
    else if ('toolUse' in block && block.toolUse) {
      toolCalls.push({ id: block.toolUse.toolUseId, type: 'function', function: { name: block.toolUse.name, arguments: JSON.stringify(block.toolUse.input ?? {}) } });
    }
  }
  // OpenAI sends `content: null` beside tool calls, and a string otherwise.
  message.content = texts.length > 0 || toolCalls.length === 0 ? texts.join('') : null;
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  const usage = parseBedrockUsage(body.usage);
  const completion: ChatCompletionObject = {
    id: `chatcmpl-${randomUUID().replaceAll('-', '')}`,
    object: 'chat.completion',
    created: Math.floor(call.clock() / 1000),
    model: call.publicModelId,
    choices: [{ index: 0, message, logprobs: null, finish_reason: mapBedrockStopReason(body.stopReason) }],
    usage: {
      prompt_tokens: usage?.promptTokens ?? 0,
      completion_tokens: usage?.completionTokens ?? 0,
      total_tokens: usage?.totalTokens ?? 0,
      prompt_tokens_details: { cached_tokens: usage?.cachedPromptTokens ?? 0 },
    },
  };
  return { completion, usage };
}

function parseBody(bodyText: string): BedrockConverseResponseBody {
  try {
    const parsed: unknown = JSON.parse(bodyText);
    if (parsed && typeof parsed === 'object') return parsed as BedrockConverseResponseBody;
  } catch {
    // Falls through to the error below; the body itself is never shown.
  }
  throw new GatewayError('server_error', 'The upstream vendor sent an answer that is not a Converse response.');
}
