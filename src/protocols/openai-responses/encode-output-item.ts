import type { AnswerBlock, AnswerToolCallBlock } from '../../core/canonical/canonical-answer.js';
import type { SealedArtefact } from '../shared/reasoning-sealer.js';
import type { FlatToolNames } from './flatten-namespace-tools.js';
import type { OutputItemIdPrefix } from './response-encoding-context.js';
import type { ResponsesOutputItem, ResponsesReasoningItem } from './responses-wire-types.js';

/** The item id prefix of each block type. */
export function itemIdPrefixOf(block: AnswerBlock): OutputItemIdPrefix {
  switch (block.type) {
    case 'text':
      return 'msg';
    case 'tool-call':
      return 'fc';
    case 'reasoning':
      return 'rs';
    default: {
      const unreachable: never = block;
      throw new Error(`Unhandled block ${JSON.stringify(unreachable)}`);
    }
  }
}

/**
 * One answer block as a finished output item: text → an assistant message with one `output_text`, reasoning → a
 * reasoning item (its text as one summary part, its artefact sealed when a sealer is given), tool call → a
 * function call (named as the client named it: a vendor's flat name of a namespaced function becomes its
 * `namespace` and `name` again; its `call_id` is `shownCallId`, see responsesCallIdOf). A block the stream never
 * ended is `incomplete`.
 */
export function encodeOutputItem(
  block: AnswerBlock,
  itemId: string,
  sealReasoning: ((sealed: SealedArtefact) => string) | undefined,
  toolNames: FlatToolNames,
  shownCallId?: string,
): ResponsesOutputItem {
  const status = block.ended ? 'completed' : 'incomplete';
  switch (block.type) {
    case 'text':
      return {
        id: itemId,
        type: 'message',
        role: 'assistant',
        status,
        content: [{ type: 'output_text', text: block.text, annotations: [], logprobs: [] }],
      };
    case 'tool-call':
      return {
        id: itemId,
        type: 'function_call',
        call_id: shownCallId ?? block.callId,
        ...toolNames.clientNameOf(block.name),
        arguments: block.arguments,
        status,
      };
    case 'reasoning': {
      const item: ResponsesReasoningItem = {
        id: itemId,
        type: 'reasoning',
        summary: block.text ? [{ type: 'summary_text', text: block.text }] : [],
      };
      if (sealReasoning && block.artefact) item.encrypted_content = sealReasoning({ artefact: block.artefact });
      return item;
    }
    default: {
      const unreachable: never = block;
      throw new Error(`Unhandled block ${JSON.stringify(unreachable)}`);
    }
  }
}

/** Whether a block is a tool call whose vendor artefact goes out, sealed, in a reasoning item right before it. */
export function hasSealedToolCallArtefact(
  block: AnswerBlock,
  sealReasoning: ((sealed: SealedArtefact) => string) | undefined,
): block is AnswerToolCallBlock & { artefact: NonNullable<AnswerToolCallBlock['artefact']> } {
  return block.type === 'tool-call' && block.artefact !== undefined && sealReasoning !== undefined;
}

/**
 * The reasoning item that carries a tool call's vendor artefact (Gemini's functionCall `thoughtSignature`): an empty
 * summary and the artefact sealed with the call id, so that on replay it is attached to that call again. Call ids
 * stay the vendor's own (Responses caps `call_id` at 64 characters).
 */
export function encodeToolCallArtefactItem(
  block: AnswerToolCallBlock & { artefact: NonNullable<AnswerToolCallBlock['artefact']> },
  itemId: string,
  sealReasoning: (sealed: SealedArtefact) => string,
): ResponsesReasoningItem {
  return {
    id: itemId,
    type: 'reasoning',
    summary: [],
    encrypted_content: sealReasoning({ artefact: block.artefact, callId: block.callId }),
  };
}
