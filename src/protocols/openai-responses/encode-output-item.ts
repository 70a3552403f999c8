import type { AnswerBlock } from '../../core/canonical/canonical-answer.js';
import type { VendorArtefact } from '../../core/canonical/vendor-artefact.js';
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
 * function call. A block the stream never ended is `incomplete`.
 */
export function encodeOutputItem(block: AnswerBlock, itemId: string, sealReasoning: ((artefact: VendorArtefact) => string) | undefined): ResponsesOutputItem {
  const status = block.ended ? 'completed' : 'incomplete';
  switch (block.type) {
    case 'text':
      return { id: itemId, type: 'message', role: 'assistant', status, content: [{ type: 'output_text', text: block.text, annotations: [], logprobs: [] }] };
    case 'tool-call':
      return { id: itemId, type: 'function_call', call_id: block.callId, name: block.name, arguments: block.arguments, status };
    case 'reasoning': {
      const item: ResponsesReasoningItem = { id: itemId, type: 'reasoning', summary: block.text ? [{ type: 'summary_text', text: block.text }] : [] };
      if (sealReasoning && block.artefact) item.encrypted_content = sealReasoning(block.artefact);
      return item;
    }
    default: {
      const unreachable: never = block;
      throw new Error(`Unhandled block ${JSON.stringify(unreachable)}`);
    }
  }
}
