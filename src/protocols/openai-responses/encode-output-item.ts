import type { AnswerBlock, AnswerToolCallBlock } from '../../core/canonical/canonical-answer.js';
import type { SealedArtefact } from '../shared/reasoning-sealer.js';
import { customToolInputOf } from './custom-tool-function.js';
import type { OutputItemIdPrefix } from './response-encoding-context.js';
import type { ResponsesToolMap } from './responses-tool-map.js';
import type { ResponsesOutputItem, ResponsesReasoningItem } from './responses-wire-types.js';
import { toolSearchArgumentsOf } from './tool-search-function.js';

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
 * `namespace` and `name` again; its `call_id` is `shownCallId`, see responsesCallIdOf), or, when it calls what stands
 * for a custom tool or a client-run tool search, a `custom_tool_call` (the `input` argument as its input) or a
 * `tool_search_call` (the arguments as an object). A block the stream never ended is `incomplete`.
 */
export function encodeOutputItem(
  block: AnswerBlock,
  itemId: string,
  sealReasoning: ((sealed: SealedArtefact) => string) | undefined,
  toolNames: ResponsesToolMap,
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
      return encodeToolCallItem(block, itemId, toolNames, shownCallId ?? block.callId);
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

function encodeToolCallItem(
  block: AnswerToolCallBlock,
  itemId: string,
  toolNames: ResponsesToolMap,
  callId: string,
): ResponsesOutputItem {
  const status = block.ended ? 'completed' : 'incomplete';
  const call = toolNames.clientCallOf(block.name);
  switch (call.type) {
    case 'function': {
      const { type: _function, ...name } = call;
      return { id: itemId, type: 'function_call', call_id: callId, ...name, arguments: block.arguments, status };
    }
    case 'custom':
      return {
        id: itemId,
        type: 'custom_tool_call',
        call_id: callId,
        name: call.name,
        input: customToolInputOf(block.arguments),
        status,
      };
    case 'tool_search':
      return {
        id: itemId,
        type: 'tool_search_call',
        call_id: callId,
        execution: 'client',
        arguments: toolSearchArgumentsOf(block.arguments),
        status,
      };
    default: {
      const unreachable: never = call;
      throw new Error(`Unhandled tool call ${JSON.stringify(unreachable)}`);
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
