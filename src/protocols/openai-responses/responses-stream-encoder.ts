import type { AnswerBlock } from '../../core/canonical/canonical-answer.js';
import type { CanonicalStreamPart } from '../../core/canonical/canonical-stream-part.js';
import { createAnswerBuilder } from '../../core/canonical/fold-stream-parts.js';
import { encodeFinalResponse, encodeInProgressResponse } from './encode-response.js';
import { encodeOutputItem, itemIdPrefixOf } from './encode-output-item.js';
import type { ResponseEncodingContext } from './response-encoding-context.js';
import type { ResponsesOutputItem, ResponsesStatus, ResponsesStreamEvent, ResponsesStreamEventType } from './responses-wire-types.js';

/**
 * Turns canonical stream parts into Responses events, the way `responses.stream()` and Codex need them: the one
 * owner of `sequence_number` (from 0, +1 per event), output indices (one item per block, dense, in start order),
 * item ids, and the final items that the terminal event carries.
 */
export interface ResponsesStreamEncoder {
  /** `response.created` and `response.in_progress`; call once, first */
  start(): ResponsesStreamEvent[];
  /** the events one part causes (none for usage and finish, which the terminal event carries) */
  push(part: CanonicalStreamPart): ResponsesStreamEvent[];
  /** closes every open item and emits exactly one of `response.completed`, `.incomplete` or `.failed` */
  end(): ResponsesStreamEvent[];
}

/** The state of one output item while it streams. */
interface StreamedItem {
  itemId: string;
  /** a reasoning item's summary part has been announced (it is, at the first non-empty delta) */
  summaryStarted: boolean;
  /** the finished item, set when its done events have been emitted */
  done?: ResponsesOutputItem;
}

/** The one terminal event a finished response is announced with. */
function terminalEventTypeOf(status: ResponsesStatus): ResponsesStreamEventType {
  switch (status) {
    case 'completed':
      return 'response.completed';
    case 'incomplete':
      return 'response.incomplete';
    case 'failed':
      return 'response.failed';
    case 'in_progress':
      throw new Error('A finished response cannot be in progress');
    default: {
      const unreachable: never = status;
      throw new Error(`Unhandled status ${String(unreachable)}`);
    }
  }
}

/** A stream encoder for one response. */
export function createResponsesStreamEncoder(context: ResponseEncodingContext): ResponsesStreamEncoder {
  const builder = createAnswerBuilder();
  const items: StreamedItem[] = [];
  let sequenceNumber = 0;
  let ended = false;

  function event(type: ResponsesStreamEventType, fields: Record<string, unknown>): ResponsesStreamEvent {
    return { type, sequence_number: sequenceNumber++, ...fields };
  }

  function itemAt(blockIndex: number): StreamedItem {
    const item = items[blockIndex];
    if (!item) throw new Error(`No output item for block ${blockIndex}`);
    return item;
  }

  function open(blockIndex: number, block: AnswerBlock): ResponsesStreamEvent[] {
    const item: StreamedItem = { itemId: context.createItemId(itemIdPrefixOf(block)), summaryStarted: false };
    items[blockIndex] = item;
    const where = { output_index: blockIndex };
    switch (block.type) {
      case 'text':
        return [
          event('response.output_item.added', { ...where, item: { id: item.itemId, type: 'message', role: 'assistant', status: 'in_progress', content: [] } }),
          event('response.content_part.added', {
            item_id: item.itemId,
            ...where,
            content_index: 0,
            part: { type: 'output_text', text: '', annotations: [], logprobs: [] },
          }),
        ];
      case 'reasoning':
        return [event('response.output_item.added', { ...where, item: { id: item.itemId, type: 'reasoning', summary: [] } })];
      case 'tool-call':
        return [
          event('response.output_item.added', {
            ...where,
            item: { id: item.itemId, type: 'function_call', call_id: block.callId, name: block.name, arguments: '', status: 'in_progress' },
          }),
        ];
      default: {
        const unreachable: never = block;
        throw new Error(`Unhandled block ${JSON.stringify(unreachable)}`);
      }
    }
  }

  function close(blockIndex: number, block: AnswerBlock): ResponsesStreamEvent[] {
    const item = itemAt(blockIndex);
    const done = encodeOutputItem(block, item.itemId, context.sealReasoning);
    item.done = done;
    const where = { item_id: item.itemId, output_index: blockIndex };
    switch (block.type) {
      case 'text': {
        const part = { type: 'output_text', text: block.text, annotations: [], logprobs: [] };
        return [
          event('response.output_text.done', { ...where, content_index: 0, text: block.text, logprobs: [] }),
          event('response.content_part.done', { ...where, content_index: 0, part }),
          event('response.output_item.done', { output_index: blockIndex, item: done }),
        ];
      }
      case 'reasoning': {
        const summaryEvents = item.summaryStarted
          ? [
              event('response.reasoning_summary_text.done', { ...where, summary_index: 0, text: block.text }),
              event('response.reasoning_summary_part.done', { ...where, summary_index: 0, part: { type: 'summary_text', text: block.text } }),
            ]
          : [];
        return [...summaryEvents, event('response.output_item.done', { output_index: blockIndex, item: done })];
      }
      case 'tool-call':
        return [
          event('response.function_call_arguments.done', { ...where, name: block.name, arguments: block.arguments }),
          event('response.output_item.done', { output_index: blockIndex, item: done }),
        ];
      default: {
        const unreachable: never = block;
        throw new Error(`Unhandled block ${JSON.stringify(unreachable)}`);
      }
    }
  }

  function blockAt(blockIndex: number): AnswerBlock {
    const block = builder.block(blockIndex);
    if (!block) throw new Error(`No block ${blockIndex}`);
    return block;
  }

  function terminate(): ResponsesStreamEvent[] {
    ended = true;
    const answer = builder.answer();
    const events: ResponsesStreamEvent[] = [];
    answer.blocks.forEach((block, blockIndex) => {
      if (!itemAt(blockIndex).done) events.push(...close(blockIndex, block));
    });
    const output = items.map((item) => {
      if (!item.done) throw new Error('An output item was left open');
      return item.done;
    });
    const response = encodeFinalResponse(answer, context, output);
    events.push(event(terminalEventTypeOf(response.status), { response }));
    return events;
  }

  return {
    start() {
      const response = encodeInProgressResponse(context);
      return [event('response.created', { response }), event('response.in_progress', { response })];
    },
    push(part) {
      if (ended) return [];
      builder.add(part);
      switch (part.type) {
        case 'response-start':
        case 'finish':
        case 'usage':
          return [];
        case 'text-start':
        case 'reasoning-start':
        case 'tool-call-start':
          return open(part.blockIndex, blockAt(part.blockIndex));
        case 'text-delta': {
          if (!part.text) return [];
          const item = itemAt(part.blockIndex);
          return [event('response.output_text.delta', { item_id: item.itemId, output_index: part.blockIndex, content_index: 0, delta: part.text, logprobs: [] })];
        }
        case 'reasoning-delta': {
          if (!part.text) return [];
          const item = itemAt(part.blockIndex);
          const where = { item_id: item.itemId, output_index: part.blockIndex, summary_index: 0 };
          const events: ResponsesStreamEvent[] = [];
          if (!item.summaryStarted) {
            item.summaryStarted = true;
            events.push(event('response.reasoning_summary_part.added', { ...where, part: { type: 'summary_text', text: '' } }));
          }
          events.push(event('response.reasoning_summary_text.delta', { ...where, delta: part.text }));
          return events;
        }
        case 'tool-call-delta': {
          if (!part.argumentsDelta) return [];
          const item = itemAt(part.blockIndex);
          return [event('response.function_call_arguments.delta', { item_id: item.itemId, output_index: part.blockIndex, delta: part.argumentsDelta })];
        }
        case 'text-end':
        case 'reasoning-end':
        case 'tool-call-end':
          return close(part.blockIndex, blockAt(part.blockIndex));
        case 'error':
          // As OpenAI does: an `error` event (the SDK's stream rejects on it), then the terminal `response.failed`.
          return [event('error', { code: part.failure.code, message: part.failure.message, param: null }), ...terminate()];
        default: {
          const unreachable: never = part;
          throw new Error(`Unhandled stream part ${JSON.stringify(unreachable)}`);
        }
      }
    },
    end() {
      return ended ? [] : terminate();
    },
  };
}
