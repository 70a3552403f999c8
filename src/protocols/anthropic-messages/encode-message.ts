import type { AnswerBlock, AnswerToolCallBlock, CanonicalAnswer } from '../../core/canonical/canonical-answer.js';
import type { VendorArtefact } from '../../core/canonical/vendor-artefact.js';
import { encodeMessagesUsage } from './encode-messages-usage.js';
import { encodeStopReason } from './encode-stop-reason.js';
import type { MessagesEncodingContext } from './messages-encoding-context.js';
import { toMessagesToolUseId } from './messages-tool-use-id.js';
import type { MessagesAnswer, MessagesAnswerBlock } from './messages-wire-types.js';

/** A whole answer as the Message object of a non-streamed `POST /v1/messages`. */
export function encodeMessage(answer: CanonicalAnswer, context: MessagesEncodingContext): MessagesAnswer {
  return {
    id: context.messageId,
    type: 'message',
    role: 'assistant',
    model: context.model,
    content: answer.blocks.flatMap((block) => {
      const encoded = encodeAnswerBlock(block, context);
      const carrier = block.type === 'tool-call' ? encodeToolUseArtefactBlock(block, context) : null;
      return [...(carrier ? [carrier] : []), ...(encoded ? [encoded] : [])];
    }),
    ...encodeStopReason(answer.finish),
    usage: encodeMessagesUsage(answer.usage),
  };
}

/** One answer block as a content block; null for a reasoning block with neither text nor artefact (nothing to show). */
export function encodeAnswerBlock(block: AnswerBlock, context: MessagesEncodingContext): MessagesAnswerBlock | null {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'reasoning':
      return encodeReasoningBlock(block.text, block.artefact, context);
    case 'tool-call':
      return {
        type: 'tool_use',
        id: toMessagesToolUseId(block.callId),
        name: block.name,
        input: parseToolInput(block.arguments),
      };
    default: {
      const unreachable: never = block;
      throw new Error(`Unhandled block ${JSON.stringify(unreachable)}`);
    }
  }
}

/**
 * Reasoning as `thinking` with the sealed artefact as its signature, or as `redacted_thinking` when the vendor gave
 * only encrypted reasoning; null when there is neither text nor artefact.
 */
export function encodeReasoningBlock(
  text: string,
  artefact: VendorArtefact | undefined,
  context: MessagesEncodingContext,
): MessagesAnswerBlock | null {
  const sealed = artefact && context.sealArtefact ? context.sealArtefact({ artefact }) : '';
  if (text.length === 0 && artefact?.redactedData !== undefined && sealed)
    return { type: 'redacted_thinking', data: sealed };
  if (text.length === 0 && !sealed) return null;
  return { type: 'thinking', thinking: text, signature: sealed };
}

/**
 * The thinking block that carries a tool call's vendor artefact (Gemini's functionCall `thoughtSignature`) right before
 * its `tool_use`: empty thinking, the artefact sealed with the `tool_use` id as the signature, so that on the next turn
 * it is attached to that call again; null when the call has no artefact or there is no sealer.
 */
export function encodeToolUseArtefactBlock(
  block: AnswerToolCallBlock,
  context: MessagesEncodingContext,
): MessagesAnswerBlock | null {
  if (!block.artefact || !context.sealArtefact) return null;
  return {
    type: 'thinking',
    thinking: '',
    signature: context.sealArtefact({ artefact: block.artefact, callId: toMessagesToolUseId(block.callId) }),
  };
}

/** The call's JSON arguments as the `input` object; arguments that are not a JSON object (a cut stream) give `{}`. */
export function parseToolInput(argumentsJson: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(argumentsJson);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}
