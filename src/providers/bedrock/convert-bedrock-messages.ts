import { GatewayError } from '../../core/gateway-error.js';
import type { ChatMessage, ChatTextPart, ChatToolCall } from '../../core/openai-chat-request.js';
import type { RemoteImage } from '../remote-image/remote-image.js';
import type { BedrockContentBlock, BedrockMessage } from './bedrock-converse-types.js';
import { convertBedrockImagePart } from './convert-bedrock-image-part.js';

/** The conversation in Converse's shape. */
export interface BedrockConversation {
  /** system and developer messages, in order */
  system: Array<{ text: string }>;
  /** user and assistant turns; consecutive turns of one role are merged, as Converse requires alternation */
  messages: BedrockMessage[];
  /** true when a turn carries toolUse or toolResult blocks (Converse then requires `toolConfig`) */
  usesTools: boolean;
}

/**
 * Converts OpenAI messages. Converse has one top-level `system` list, so a system message in the middle of the
 * conversation joins it there; tool messages become `toolResult` blocks of a user turn; `name` fields have no
 * Converse equivalent and are not sent. `remoteImages` holds the fetched http(s) image URLs, by URL.
 */
export function convertBedrockMessages(messages: readonly ChatMessage[], remoteImages: ReadonlyMap<string, RemoteImage>): BedrockConversation {
  const conversation: BedrockConversation = { system: [], messages: [], usesTools: false };
  messages.forEach((message, messageIndex) => {
    const param = `messages[${messageIndex}]`;
    switch (message.role) {
      case 'system':
      case 'developer':
        for (const text of textsOf(message.content)) if (text) conversation.system.push({ text });
        return;
      case 'user':
        appendTurn(conversation, 'user', convertUserContent(message.content, param, remoteImages));
        return;
      case 'assistant': {
        const blocks = [...convertAssistantContent(message.content), ...convertToolCalls(message.tool_calls ?? [], param)];
        if (message.tool_calls?.length) conversation.usesTools = true;
        appendTurn(conversation, 'assistant', blocks);
        return;
      }
      case 'tool':
        conversation.usesTools = true;
        // Tool results always travel as text: Converse's `json` variant only takes objects and some models reject it.
        appendTurn(conversation, 'user', [{ toolResult: { toolUseId: message.tool_call_id, content: [{ text: textsOf(message.content).join('') }] } }]);
        return;
      case 'function':
        throw new GatewayError('invalid_request_error', "Bedrock models do not accept legacy 'function' messages; use tool messages with tool_call_id.", {
          param: `${param}.role`,
        });
      default:
        return assertNever(message);
    }
  });
  return conversation;
}

function appendTurn(conversation: BedrockConversation, role: BedrockMessage['role'], blocks: BedrockContentBlock[]): void {
  // Converse rejects empty turns (an assistant message with neither text nor tool calls).
  if (blocks.length === 0) return;
  const previous = conversation.messages.at(-1);
  if (previous?.role === role) previous.content.push(...blocks);
  else conversation.messages.push({ role, content: blocks });
}

function convertUserContent(content: Extract<ChatMessage, { role: 'user' }>['content'], param: string, remoteImages: ReadonlyMap<string, RemoteImage>): BedrockContentBlock[] {
  if (typeof content === 'string') return [{ text: content }];
  return content.map((part, partIndex): BedrockContentBlock => {
    const partParam = `${param}.content[${partIndex}]`;
    if (part.type === 'text') return { text: (part as ChatTextPart).text };
    if (part.type === 'image_url') return convertBedrockImagePart(part, `${partParam}.image_url`, remoteImages);
    throw new GatewayError('invalid_request_error', `Bedrock models do not accept '${part.type}' content parts.`, { param: partParam });
  });
}

function convertAssistantContent(content: Extract<ChatMessage, { role: 'assistant' }>['content']): BedrockContentBlock[] {
  if (content === undefined || content === null) return [];
  if (typeof content === 'string') return content ? [{ text: content }] : [];
  const blocks: BedrockContentBlock[] = [];
  for (const part of content) {
    const text = part.type === 'text' ? (part as ChatTextPart).text : part.type === 'refusal' && typeof part.refusal === 'string' ? part.refusal : '';
    // Converse rejects blank text blocks; an empty assistant part carries nothing.
    if (text) blocks.push({ text });
  }
  return blocks;
}

function convertToolCalls(toolCalls: readonly ChatToolCall[], param: string): BedrockContentBlock[] {
  return toolCalls.map((toolCall, callIndex) => ({
    toolUse: { toolUseId: toolCall.id, name: toolCall.function.name, input: parseArguments(toolCall.function.arguments, `${param}.tool_calls[${callIndex}].function.arguments`) },
  }));
}

function parseArguments(argumentsText: string, param: string): unknown {
  if (!argumentsText.trim()) return {};
  try {
    return JSON.parse(argumentsText);
  } catch {
    throw new GatewayError('invalid_request_error', 'Tool call arguments must be a JSON string for Bedrock models.', { param });
  }
}

function textsOf(content: string | ChatTextPart[] | null): string[] {
  if (content === null) return [];
  return typeof content === 'string' ? [content] : content.map((part) => part.text);
}

function assertNever(value: never): never {
  throw new Error(`Unexpected message: ${JSON.stringify(value)}`);
}
