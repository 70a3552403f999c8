import type {
  CanonicalAssistantContent,
  CanonicalMessage,
  CanonicalUserContent,
} from '../../core/canonical/canonical-request.js';
import { assertNever } from '../../core/assert-never.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { RemoteImage } from '../remote-image/remote-image.js';
import { parseToolArguments } from '../parse-tool-arguments.js';
import { convertGeminiImage } from './convert-gemini-image.js';
import type { GeminiContent, GeminiPart } from './gemini-wire-types.js';

/** The vendor family whose artefacts (thought signatures) this adapter may send back. */
export const geminiArtefactProducer = 'gemini';

/** The conversation in Gemini's shape. */
export interface ConvertedGeminiConversation {
  /** the instructions, then system and developer messages, wherever they appeared */
  systemInstruction: { parts: Array<{ text: string }> } | undefined;
  /** user and model turns, consecutive same-role turns merged */
  contents: GeminiContent[];
}

/**
 * Converts canonical messages (`remoteImages` holds the fetched http(s) image URLs, by URL): assistant → `model`
 * turns with functionCall parts (arguments parsed, the thought signature restored from a Gemini artefact only), reasoning → a thought part only when Gemini produced it (with its signature), tool
 * results → functionResponse parts of a user turn (the function name found from the assistant call with that id; the
 * response is the parsed JSON object, or `{content: <text>}`), consecutive same-role turns merged.
 */
export function convertGeminiContents(
  instructions: string | null,
  messages: readonly CanonicalMessage[],
  remoteImages: ReadonlyMap<string, RemoteImage>,
): ConvertedGeminiConversation {
  const systemParts: Array<{ text: string }> = instructions ? [{ text: instructions }] : [];
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
        const text = message.content.map((part) => part.text).join('');
        if (text) systemParts.push({ text });
        return;
      }
      case 'user':
        append(
          'user',
          message.content.map((part, partIndex) => userPart(part, `${param}.content[${partIndex}]`, remoteImages)),
        );
        return;
      case 'assistant':
        for (const part of message.content)
          if (part.type === 'tool-call') functionNameByCallId.set(part.callId, part.name);
        append(
          'model',
          message.content.flatMap((part, partIndex) => modelParts(part, `${param}.content[${partIndex}]`)),
        );
        return;
      case 'tool':
        append(
          'user',
          message.content.map((part) => {
            const name = functionNameByCallId.get(part.callId);
            if (!name)
              throw new GatewayError(
                'invalid_request_error',
                `No earlier assistant tool call has the id '${part.callId}'.`,
                { param: `${param}.tool_call_id` },
              );
            const text =
              typeof part.output === 'string'
                ? part.output
                : part.output.map((outputPart) => (outputPart.type === 'text' ? outputPart.text : '')).join('');
            return { functionResponse: { name, response: responseObject(text) } };
          }),
        );
        return;
      default:
        return assertNever(message, 'message role');
    }
  });
  return { systemInstruction: systemParts.length > 0 ? { parts: systemParts } : undefined, contents };
}

function userPart(
  part: CanonicalUserContent,
  param: string,
  remoteImages: ReadonlyMap<string, RemoteImage>,
): GeminiPart {
  switch (part.type) {
    case 'text':
      return { text: part.text };
    case 'image':
      return convertGeminiImage(part.url, param, remoteImages);
    case 'file':
      throw new GatewayError('invalid_request_error', "Content parts of type 'file' cannot be sent to this model.", {
        param,
      });
    default:
      return assertNever(part, 'user content part');
  }
}

function modelParts(part: CanonicalAssistantContent, param: string): GeminiPart[] {
  switch (part.type) {
    case 'text':
      return part.text ? [{ text: part.text }] : [];
    case 'reasoning': {
      const signature = part.artefact?.producer === geminiArtefactProducer ? part.artefact.signature : undefined;
      return signature ? [{ text: part.text, thought: true, thoughtSignature: signature }] : [];
    }
    case 'tool-call': {
      const args = parseToolArguments(part.arguments, `${param}.arguments`);
      const thoughtSignature = part.artefact?.producer === geminiArtefactProducer ? part.artefact.signature : undefined;
      return [{ functionCall: { name: part.name, args }, ...(thoughtSignature ? { thoughtSignature } : {}) }];
    }
    default:
      return assertNever(part, 'assistant content part');
  }
}

/** A tool result's text as functionResponse.response: the JSON object it holds, else `{content: text}`. */
function responseObject(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // plain text
  }
  return { content: text };
}
