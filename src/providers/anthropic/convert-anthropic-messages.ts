import type {
  CanonicalAssistantContent,
  CanonicalMessage,
  CanonicalToolResultPart,
  CanonicalUserContent,
} from '../../core/canonical/canonical-request.js';
import { assertNever } from '../../core/assert-never.js';
import { GatewayError } from '../../core/gateway-error.js';
import { parseToolArguments } from '../parse-tool-arguments.js';
import type { AnthropicContentBlock, AnthropicMessage } from './anthropic-wire-types.js';
import { convertAnthropicImage } from './convert-anthropic-image.js';

/** The vendor family whose artefacts (thinking signatures, redacted thinking) this adapter may send back. */
export const anthropicArtefactProducer = 'anthropic';

/** The conversation in Anthropic's shape. */
export interface ConvertedAnthropicConversation {
  /** the instructions, then system and developer messages, in order, as top-level text blocks (absent when there were none) */
  system: Array<{ type: 'text'; text: string }> | undefined;
  /** user and assistant turns, consecutive same-role turns merged */
  messages: AnthropicMessage[];
}

/**
 * Converts canonical messages: system/developer messages move to the top-level `system` (wherever they appeared),
 * tool results become `tool_result` blocks of a user turn, assistant tool calls `tool_use` blocks with parsed input,
 * reasoning goes back as `thinking` (with its signature) or `redacted_thinking` only when Anthropic produced it
 * (other reasoning is dropped: Anthropic refuses unsigned thinking), and consecutive turns of one role are merged.
 */
export function convertAnthropicMessages(
  instructions: string | null,
  messages: readonly CanonicalMessage[],
): ConvertedAnthropicConversation {
  const system: Array<{ type: 'text'; text: string }> = instructions ? [{ type: 'text', text: instructions }] : [];
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
        system.push(
          ...message.content.filter((part) => part.text).map((part) => ({ type: 'text' as const, text: part.text })),
        );
        return;
      case 'user':
        append(
          'user',
          message.content.map((part, partIndex) => userBlock(part, `${param}.content[${partIndex}]`)),
        );
        return;
      case 'assistant':
        append(
          'assistant',
          message.content.flatMap((part, partIndex) => assistantBlocks(part, `${param}.content[${partIndex}]`)),
        );
        return;
      case 'tool':
        append(
          'user',
          message.content.map((part, partIndex) => toolResultBlock(part, `${param}.content[${partIndex}]`)),
        );
        return;
      default:
        return assertNever(message, 'message role');
    }
  });
  return { system: system.length > 0 ? system : undefined, messages: converted };
}

function userBlock(part: CanonicalUserContent, param: string): AnthropicContentBlock {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image':
      return convertAnthropicImage(part.url, param);
    case 'file':
      throw new GatewayError('invalid_request_error', "Content parts of type 'file' cannot be sent to this model.", {
        param,
      });
    default:
      return assertNever(part, 'user content part');
  }
}

function assistantBlocks(part: CanonicalAssistantContent, param: string): AnthropicContentBlock[] {
  switch (part.type) {
    case 'text':
      return part.text ? [{ type: 'text', text: part.text }] : [];
    case 'reasoning': {
      const artefact = part.artefact?.producer === anthropicArtefactProducer ? part.artefact : undefined;
      if (artefact?.redactedData) return [{ type: 'redacted_thinking', data: artefact.redactedData }];
      if (artefact?.signature) return [{ type: 'thinking', thinking: part.text, signature: artefact.signature }];
      return [];
    }
    case 'tool-call':
      return [
        {
          type: 'tool_use',
          id: part.callId,
          name: part.name,
          input: parseToolArguments(part.arguments, `${param}.arguments`),
        },
      ];
    default:
      return assertNever(part, 'assistant content part');
  }
}

function toolResultBlock(part: CanonicalToolResultPart, param: string): AnthropicContentBlock {
  if (typeof part.output === 'string') return { type: 'tool_result', tool_use_id: part.callId, content: part.output };
  return {
    type: 'tool_result',
    tool_use_id: part.callId,
    content: part.output.map((outputPart, outputIndex) => userBlock(outputPart, `${param}.output[${outputIndex}]`)),
  };
}
