import type { ChatAdapter, VendorCall } from '../chat-adapter.js';
import { createChatCompletionObject } from '../translated-stream/create-chat-completion-object.js';
import type { AnthropicResponseMessage } from './anthropic-wire-types.js';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason.js';
import { parseAnthropicUsage } from './parse-anthropic-usage.js';

/**
 * A non-streamed Anthropic `Message` as an OpenAI chat completion: text blocks joined, tool_use blocks as
 * tool_calls with `JSON.stringify(input)`. Thinking blocks are not shown (OpenAI's message has no field
 * for them); their tokens are still in the usage.
 */
export function decodeAnthropicResponse(bodyText: string, call: VendorCall): ReturnType<ChatAdapter['decodeChatResponse']> {
  const message = JSON.parse(bodyText) as AnthropicResponseMessage;
  const blocks = message.content ?? [];
  const texts = blocks.filter((block) => block.type === 'text').map((block) => block.text ?? '');
  const toolCalls = blocks
    .filter((block) => block.type === 'tool_use')
    .map((block) => ({ id: block.id ?? '', name: block.name ?? '', arguments: JSON.stringify(block.input ?? {}) }));
  return createChatCompletionObject({
    id: message.id ?? `msg-${call.clock()}`,
    created: Math.floor(call.clock() / 1000),
    model: call.publicModelId,
    choices: [{ text: texts.length > 0 ? texts.join('') : null, toolCalls, finishReason: mapAnthropicStopReason(message.stop_reason) }],
    usage: message.usage ? parseAnthropicUsage(message.usage) : undefined,
  });
}
