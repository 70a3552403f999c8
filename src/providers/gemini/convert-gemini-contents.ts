import { GatewayError } from '../../core/gateway-error.js';
import type { ChatMessage } from '../../core/openai-chat-request.js';
import type { RemoteImage } from '../remote-image/remote-image.js';
import { assertNever } from '../translated-stream/assert-never.js';
import { parseToolArguments } from '../translated-stream/parse-tool-arguments.js';
import { convertGeminiImage } from './convert-gemini-image.js';
import { readGeminiThoughtSignature } from './gemini-tool-call-id.js';
import type { GeminiContent, GeminiPart } from './gemini-wire-types.js';

/** The conversation in Gemini's shape. */
export interface ConvertedGeminiConversation {
  /** system and developer messages, wherever they appeared */
  systemInstruction: { parts: Array<{ text: string }> } | undefined;
  /** user and model turns, consecutive same-role turns merged */
  contents: GeminiContent[];
}

/**
 * Converts OpenAI messages (`remoteImages` holds the fetched http(s) image URLs, by URL): assistant → `model` turns with functionCall parts (arguments parsed, thought
 * signature restored from the call id), tool messages → functionResponse parts of a user turn (the
 * function name found from the assistant call with that id; the response is the parsed JSON object, or
 * `{content: <text>}`), consecutive same-role turns merged.
 */
export function convertGeminiContents(messages: readonly ChatMessage[], remoteImages: ReadonlyMap<string, RemoteImage>): ConvertedGeminiConversation {
  const systemParts: Array<{ text: string }> = [];
  const contents: GeminiContent[] = [];
  const functionNameByCallId = new Map<string, string>();
  const append = (role: GeminiContent['role'], parts: GeminiPart[]): void => {
    if (parts.length === 0) return;
    const last = contents.at(-1);
    if (last?.role === role) last.parts.push(...parts);
    else contents.push({ role, parts });
  };

  messages.forEach((message, messageIndex) => {
    const param = `messages[${messageIndex}]`;
    switch (message.role) {
      case 'system':
      case 'developer': {
        const text = textOf(message.content);
        if (text) systemParts.push({ text });
        return;
      }
      case 'user':
        append('user', userParts(message.content, param, remoteImages));
        return;
      case 'assistant':
        message.tool_calls?.forEach((toolCall) => functionNameByCallId.set(toolCall.id, toolCall.function.name));
        append('model', modelParts(message, param));
        return;
      case 'tool': {
        const name = functionNameByCallId.get(message.tool_call_id);
        if (!name) throw new GatewayError('invalid_request_error', `No earlier assistant tool call has the id '${message.tool_call_id}'.`, { param: `${param}.tool_call_id` });
        append('user', [{ functionResponse: { name, response: responseObject(textOf(message.content)) } }]);
        return;
      }
      case 'function':
        throw new GatewayError('invalid_request_error', "Messages with the deprecated role 'function' cannot be sent to this model; use 'tool' messages.", { param });
      default:
        return assertNever(message, 'message role');
    }
  });
  return { systemInstruction: systemParts.length > 0 ? { parts: systemParts } : undefined, contents };
}

function userParts(content: Extract<ChatMessage, { role: 'user' }>['content'], param: string, remoteImages: ReadonlyMap<string, RemoteImage>): GeminiPart[] {
  if (typeof content === 'string') return [{ text: content }];
  return content.map((part, partIndex): GeminiPart => {
    const partParam = `${param}.content[${partIndex}]`;
    if (part.type === 'text') return { text: String(part.text) };
    if (part.type === 'image_url') return convertGeminiImage(String((part.image_url as { url: unknown }).url), partParam, remoteImages);
    throw new GatewayError('invalid_request_error', `Content parts of type '${part.type}' cannot be sent to this model.`, { param: partParam });
  });
}

function modelParts(message: Extract<ChatMessage, { role: 'assistant' }>, param: string): GeminiPart[] {
  const parts: GeminiPart[] = [];
  const content = message.content;
  if (typeof content === 'string' && content) parts.push({ text: content });
  if (Array.isArray(content)) {
    for (const part of content) {
      const text = part.type === 'text' ? String(part.text) : part.type === 'refusal' ? String(part.refusal) : '';
      if (text) parts.push({ text });
    }
  }
  message.tool_calls?.forEach((toolCall, callIndex) => {
    const args = parseToolArguments(toolCall.function.arguments, `${param}.tool_calls[${callIndex}].function.arguments`);
    const thoughtSignature = readGeminiThoughtSignature(toolCall.id);
    parts.push({ functionCall: { name: toolCall.function.name, args }, ...(thoughtSignature ? { thoughtSignature } : {}) });
  });
  return parts;
}

/** A tool message's text as functionResponse.response: the JSON object it holds, else `{content: text}`. */
function responseObject(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // plain text
  }
  return { content: text };
}

function textOf(content: string | Array<{ type: 'text'; text: string }>): string {
  return typeof content === 'string' ? content : content.map((part) => part.text).join('');
}
