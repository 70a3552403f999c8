import type {
  CanonicalAssistantContent,
  CanonicalMessage,
  CanonicalUserContent,
} from '../../core/canonical/canonical-request.js';
import { assertNever } from '../../core/assert-never.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { RemoteImage } from '../remote-image/remote-image.js';
import type { BedrockContentBlock, BedrockMessage } from './bedrock-converse-types.js';
import { convertBedrockImagePart } from './convert-bedrock-image-part.js';

/** The vendor family whose artefacts (reasoning signatures, redacted reasoning) this adapter may send back. */
export const bedrockArtefactProducer = 'bedrock';

/** The conversation in Converse's shape. */
export interface BedrockConversation {
  /** the instructions, then system and developer messages, in order */
  system: Array<{ text: string }>;
  /** user and assistant turns; consecutive turns of one role are merged, as Converse requires alternation */
  messages: BedrockMessage[];
  /** true when a turn carries toolUse or toolResult blocks (Converse then requires `toolConfig`) */
  usesTools: boolean;
}

/**
 * Converts canonical messages. Converse has one top-level `system` list, so a system message in the middle of the
 * conversation joins it there; tool results become `toolResult` blocks of a user turn; reasoning goes back as
 * `reasoningContent` only when Bedrock produced it (with its signature or redacted content), other reasoning is
 * dropped. `remoteImages` holds the fetched http(s) image URLs, by URL.
 */
export function convertBedrockMessages(
  instructions: string | null,
  messages: readonly CanonicalMessage[],
  remoteImages: ReadonlyMap<string, RemoteImage>,
): BedrockConversation {
  const conversation: BedrockConversation = {
    system: instructions ? [{ text: instructions }] : [],
    messages: [],
    usesTools: false,
  };
  messages.forEach((message, messageIndex) => {
    const param = `messages[${messageIndex}]`;
    switch (message.role) {
      case 'system':
      case 'developer':
        for (const part of message.content) if (part.text) conversation.system.push({ text: part.text });
        return;
      case 'user':
        appendTurn(
          conversation,
          'user',
          message.content.map((part, partIndex) =>
            convertUserPart(part, `${param}.content[${partIndex}]`, remoteImages),
          ),
        );
        return;
      case 'assistant': {
        if (message.content.some((part) => part.type === 'tool-call')) conversation.usesTools = true;
        appendTurn(
          conversation,
          'assistant',
          message.content.flatMap((part, partIndex) => convertAssistantPart(part, `${param}.content[${partIndex}]`)),
        );
        return;
      }
      case 'tool':
        conversation.usesTools = true;
        // Tool results always travel as text: Converse's `json` variant only takes objects and some models reject it.
        appendTurn(
          conversation,
          'user',
          message.content.map((part) => {
            const text =
              typeof part.output === 'string'
                ? part.output
                : part.output.map((outputPart) => (outputPart.type === 'text' ? outputPart.text : '')).join('');
            return { toolResult: { toolUseId: part.callId, content: [{ text }] } };
          }),
        );
        return;
      default:
        return assertNever(message, 'message role');
    }
  });
  return conversation;
}

function appendTurn(
  conversation: BedrockConversation,
  role: BedrockMessage['role'],
  blocks: BedrockContentBlock[],
): void {
  // Converse rejects empty turns (an assistant message with neither text nor tool calls).
  if (blocks.length === 0) return;
  const previous = conversation.messages.at(-1);
  if (previous?.role === role) previous.content.push(...blocks);
  else conversation.messages.push({ role, content: blocks });
}

function convertUserPart(
  part: CanonicalUserContent,
  param: string,
  remoteImages: ReadonlyMap<string, RemoteImage>,
): BedrockContentBlock {
  switch (part.type) {
    case 'text':
      return { text: part.text };
    case 'image':
      return convertBedrockImagePart(part.url, `${param}.image_url`, remoteImages);
    case 'file':
      throw new GatewayError('invalid_request_error', "Bedrock models do not accept 'file' content parts.", { param });
    default:
      return assertNever(part, 'user content part');
  }
}

function convertAssistantPart(part: CanonicalAssistantContent, param: string): BedrockContentBlock[] {
  switch (part.type) {
    case 'text':
      // Converse rejects blank text blocks; an empty assistant part carries nothing.
      return part.text ? [{ text: part.text }] : [];
    case 'reasoning': {
      const artefact = part.artefact?.producer === bedrockArtefactProducer ? part.artefact : undefined;
      if (artefact?.redactedData) return [{ reasoningContent: { redactedContent: artefact.redactedData } }];
      if (artefact?.signature)
        return [{ reasoningContent: { reasoningText: { text: part.text, signature: artefact.signature } } }];
      return [];
    }
    case 'tool-call':
      return [
        {
          toolUse: {
            toolUseId: part.callId,
            name: part.name,
            input: parseArguments(part.arguments, `${param}.arguments`),
          },
        },
      ];
    default:
      return assertNever(part, 'assistant content part');
  }
}

function parseArguments(argumentsText: string, param: string): unknown {
  if (!argumentsText.trim()) return {};
  try {
    return JSON.parse(argumentsText);
  } catch {
    throw new GatewayError('invalid_request_error', 'Tool call arguments must be a JSON string for Bedrock models.', {
      param,
    });
  }
}
