import { GatewayError } from '../../core/gateway-error.js';
import type { ChatMessage } from '../../core/openai-chat-request.js';
import { assertNever } from '../translated-stream/assert-never.js';
import { parseToolArguments } from '../translated-stream/parse-tool-arguments.js';
import type { AnthropicContentBlock, AnthropicMessage } from './anthropic-wire-types.js';
import { convertAnthropicImage } from './convert-anthropic-image.js';

/** The conversation in Anthropic's shape. */
export interface ConvertedAnthropicConversation {
  /** system and developer messages, in order, as top-level text blocks (absent when there were none) */
  system: Array<{ type: 'text'; text: string }> | undefined;
  /** user and assistant turns, consecutive same-role turns merged */
  messages: AnthropicMessage[];
}

/**
 * Converts OpenAI messages: system/developer messages move to the top-level `system` (wherever they
 * appeared), tool results become `tool_result` blocks of a user turn, assistant tool calls become
 * `tool_use` blocks with parsed input, and consecutive turns of one role are merged, as Anthropic requires.
 */
export function convertAnthropicMessages(messages: readonly ChatMessage[]): ConvertedAnthropicConversation {
  const system: Array<{ type: 'text'; text: string }> = [];
  const converted: AnthropicMessage[] = [];
  const append = (role: AnthropicMessage['role'], content: AnthropicContentBlock[]): void => {
    if (content.length === 0) return;
    const last = converted.at(-1);
    if (last?.role === role) last.content.push(...content);
    else converted.push({ role, content });
  };

  messages.forEach((message, messageIndex) => {
    const param = `messages[${messageIndex}]`;
    switch (message.role) {
      case 'system':
      case 'developer':
        system.push(...textBlocksOf(message.content));
        return;
      case 'user':
        append('user', userBlocks(message.content, param));
        return;
      case 'assistant':
        append('assistant', assistantBlocks(message, param));
        return;
      case 'tool':
        append('user', [{ type: 'tool_result', tool_use_id: message.tool_call_id, content: textOf(message.content) }]);
        return;
      case 'function':
        throw new GatewayError('invalid_request_error', "Messages with the deprecated role 'function' cannot be sent to this model; use 'tool' messages.", { param });
      default:
        return assertNever(message, 'message role');
    }
  });
  return { system: system.length > 0 ? system : undefined, messages: converted };
}

function userBlocks(content: Extract<ChatMessage, { role: 'user' }>['content'], param: string): AnthropicContentBlock[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return content.map((part, partIndex): AnthropicContentBlock => {
    const partParam = `${param}.content[${partIndex}]`;
    if (part.type === 'text') return { type: 'text', text: String(part.text) };
    if (part.type === 'image_url') return convertAnthropicImage(String((part.image_url as { url: unknown }).url), partParam);
    throw new GatewayError('invalid_request_error', `Content parts of type '${part.type}' cannot be sent to this model.`, { param: partParam });
  });
}

function assistantBlocks(message: Extract<ChatMessage, { role: 'assistant' }>, param: string): AnthropicContentBlock[] {
  const blocks: AnthropicContentBlock[] = [];
  const content = message.content;
  if (typeof content === 'string') {
    if (content) blocks.push({ type: 'text', text: content });
  } else if (Array.isArray(content)) {
    for (const part of content) {
      const text = part.type === 'text' ? String(part.text) : part.type === 'refusal' ? String(part.refusal) : '';
      if (text) blocks.push({ type: 'text', text });
    }
  }
  message.tool_calls?.forEach((toolCall, callIndex) => {
    blocks.push({ type: 'tool_use', id: toolCall.id, name: toolCall.function.name, input: parseToolArguments(toolCall.function.arguments, `${param}.tool_calls[${callIndex}].function.arguments`) });
  });
  return blocks;
}

function textBlocksOf(content: string | Array<{ type: 'text'; text: string }>): Array<{ type: 'text'; text: string }> {
  if (typeof content === 'string') return content ? [{ type: 'text', text: content }] : [];
  return content.filter((part) => part.text).map((part) => ({ type: 'text', text: part.text }));
}

function textOf(content: string | Array<{ type: 'text'; text: string }>): string {
  return typeof content === 'string' ? content : content.map((part) => part.text).join('');
}
