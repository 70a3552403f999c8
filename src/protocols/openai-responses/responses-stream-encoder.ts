import type { AnswerBlock } from '../../core/canonical/canonical-answer.js';
import type { CanonicalStreamPart } from '../../core/canonical/canonical-stream-part.js';
import { createAnswerBuilder } from '../../core/canonical/fold-stream-parts.js';
import { encodeFinalResponse, encodeInProgressResponse } from './encode-response.js';
import {
  encodeOutputItem,
  encodeToolCallArtefactItem,
  hasSealedToolCallArtefact,
  itemIdPrefixOf,
} from './encode-output-item.js';
import { responsesCallIdOf } from './responses-call-id.js';
import { customToolInputOf } from './custom-tool-function.js';
import type { OutputItemIdPrefix, ResponseEncodingContext } from './response-encoding-context.js';
import { toolMapOf } from './responses-tool-map.js';
import type {
  ResponsesOutputItem,
  ResponsesStatus,
  ResponsesStreamEvent,
  ResponsesStreamEventType,
} from './responses-wire-types.js';

/**
 * Turns canonical stream parts into Responses events, the way `responses.stream()` and Codex need them: the one
 * owner of `sequence_number` (from 0, +1 per event), output indices (one item per block, dense, in start order),
 * item ids, and the final items that the terminal event carries.
 *
 * When the client asked for encrypted content, a tool call's vendor artefact goes out sealed in a reasoning item
 * right before the call (see encodeToolCallArtefactItem), but it is known only at the call's end. So a call is held
 * while it has come whole so far (at most one arguments piece: Gemini's calls, the only ones with artefacts, always
 * do) and written whole at its end, after its artefact item; a call whose arguments come in pieces is streamed from
 * its second piece on, and an artefact that still arrives at its end goes in a reasoning item right after it.
 * Without encrypted content the artefact rides in the call's `call_id` (see responsesCallIdOf), so calls are held the
 * same way: the id in `output_item.added` is then already the final one (a call streamed in pieces keeps a plain id).
 * A call of a custom tool or of a client-run tool search is always held to its end, since its pieces are the JSON
 * of the vendor's arguments, not the custom input: it then comes whole (one `response.custom_tool_call_input.delta`
 * with the whole input, and its `.done`; a tool search call in its added and done items alone).
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
  /** its place in `output`, dense in the order items were added */
  outputIndex: number;
  /** a reasoning item's summary part has been announced (it is, at the first non-empty delta) */
  summaryStarted: boolean;
  /** the finished item, set when its done events have been emitted */
  done?: ResponsesOutputItem;
  /** a function call's `call_id` as announced in `output_item.added`, which its done item repeats */
  shownCallId?: string;
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
  const toolNames = toolMapOf(context);
  /** every output item, in output order (artefact-carrying reasoning items included) */
  const output: StreamedItem[] = [];
  /** the output item of each block that has been added, by block index */
  const itemOfBlock = new Map<number, StreamedItem>();
  /** tool call blocks held until their end or second arguments piece (see above), with the pieces seen so far */
  const heldToolCalls = new Map<number, number>();
  let sequenceNumber = 0;
  let ended = false;

  function event(type: ResponsesStreamEventType, fields: Record<string, unknown>): ResponsesStreamEvent {
    return { type, sequence_number: sequenceNumber++, ...fields };
  }

  function addItem(prefix: OutputItemIdPrefix): StreamedItem {
    const item: StreamedItem = {
      itemId: context.createItemId(prefix),
      outputIndex: output.length,
      summaryStarted: false,
    };
    output.push(item);
    return item;
  }

  /** Whether a block calls what stands for a custom tool or a tool search (held whole, see above). */
  function isHeldWhole(block: AnswerBlock): boolean {
    return block.type === 'tool-call' && toolNames.clientCallOf(block.name).type !== 'function';
  }

  function itemAt(blockIndex: number): StreamedItem {
    const item = itemOfBlock.get(blockIndex);
    if (!item) throw new Error(`No output item for block ${blockIndex}`);
    return item;
  }

  function open(blockIndex: number, block: AnswerBlock): ResponsesStreamEvent[] {
    const item = addItem(itemIdPrefixOf(block));
    itemOfBlock.set(blockIndex, item);
    const where = { output_index: item.outputIndex };
    switch (block.type) {
      case 'text':
        return [
          event('response.output_item.added', {
            ...where,
            item: { id: item.itemId, type: 'message', role: 'assistant', status: 'in_progress', content: [] },
          }),
          event('response.content_part.added', {
            item_id: item.itemId,
            ...where,
            content_index: 0,
            part: { type: 'output_text', text: '', annotations: [], logprobs: [] },
          }),
        ];
      case 'reasoning':
        return [
          event('response.output_item.added', { ...where, item: { id: item.itemId, type: 'reasoning', summary: [] } }),
        ];
      case 'tool-call': {
        item.shownCallId = block.ended ? responsesCallIdOf(block, context) : block.callId;
        const whole = encodeOutputItem(block, item.itemId, context.sealReasoning, toolNames, item.shownCallId);
        // What streams after it (arguments, input) starts empty; a tool search's arguments come only whole.
        const added =
          whole.type === 'function_call'
            ? { ...whole, arguments: '' }
            : whole.type === 'custom_tool_call'
              ? { ...whole, input: '' }
              : whole;
        return [event('response.output_item.added', { ...where, item: { ...added, status: 'in_progress' } })];
      }
      default: {
        const unreachable: never = block;
        throw new Error(`Unhandled block ${JSON.stringify(unreachable)}`);
      }
    }
  }

  function close(blockIndex: number, block: AnswerBlock): ResponsesStreamEvent[] {
    const item = itemAt(blockIndex);
    const done = encodeOutputItem(block, item.itemId, context.sealReasoning, toolNames, item.shownCallId);
    item.done = done;
    const where = { item_id: item.itemId, output_index: item.outputIndex };
    switch (block.type) {
      case 'text': {
        const part = { type: 'output_text', text: block.text, annotations: [], logprobs: [] };
        return [
          event('response.output_text.done', { ...where, content_index: 0, text: block.text, logprobs: [] }),
          event('response.content_part.done', { ...where, content_index: 0, part }),
          event('response.output_item.done', { output_index: item.outputIndex, item: done }),
        ];
      }
      case 'reasoning': {
        const summaryEvents = item.summaryStarted
          ? [
              event('response.reasoning_summary_text.done', { ...where, summary_index: 0, text: block.text }),
              event('response.reasoning_summary_part.done', {
                ...where,
                summary_index: 0,
                part: { type: 'summary_text', text: block.text },
              }),
            ]
          : [];
        return [...summaryEvents, event('response.output_item.done', { output_index: item.outputIndex, item: done })];
      }
      case 'tool-call': {
        const call = toolNames.clientCallOf(block.name);
        const doneEvents =
          call.type === 'function'
            ? [
                event('response.function_call_arguments.done', {
                  ...where,
                  name: call.name,
                  arguments: block.arguments,
                }),
              ]
            : call.type === 'custom'
              ? [event('response.custom_tool_call_input.done', { ...where, input: customToolInputOf(block.arguments) })]
              : [];
        return [...doneEvents, event('response.output_item.done', { output_index: item.outputIndex, item: done })];
      }
      default: {
        const unreachable: never = block;
        throw new Error(`Unhandled block ${JSON.stringify(unreachable)}`);
      }
    }
  }

  /** The reasoning item carrying a tool call's sealed artefact, added and done at once; none when it has none. */
  function artefactItem(block: AnswerBlock): ResponsesStreamEvent[] {
    if (!hasSealedToolCallArtefact(block, context.sealReasoning) || !context.sealReasoning) return [];
    const carrier = addItem('rs');
    carrier.done = encodeToolCallArtefactItem(block, carrier.itemId, context.sealReasoning);
    return [
      event('response.output_item.added', {
        output_index: carrier.outputIndex,
        item: { id: carrier.itemId, type: 'reasoning', summary: [] },
      }),
      event('response.output_item.done', { output_index: carrier.outputIndex, item: carrier.done }),
    ];
  }

  /** A held tool call written as far as it has come (whole when it ended), after its artefact item when it has one. */
  function releaseToolCall(blockIndex: number): ResponsesStreamEvent[] {
    heldToolCalls.delete(blockIndex);
    const block = blockAt(blockIndex);
    const events: ResponsesStreamEvent[] = [...artefactItem(block)];
    events.push(...open(blockIndex, block));
    if (block.type === 'tool-call' && block.arguments) {
      const item = itemAt(blockIndex);
      const where = { item_id: item.itemId, output_index: item.outputIndex };
      const call = toolNames.clientCallOf(block.name);
      if (call.type === 'function')
        events.push(event('response.function_call_arguments.delta', { ...where, delta: block.arguments }));
      else if (call.type === 'custom' && block.ended)
        events.push(
          event('response.custom_tool_call_input.delta', { ...where, delta: customToolInputOf(block.arguments) }),
        );
    }
    if (block.ended) events.push(...close(blockIndex, block));
    return events;
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
      if (heldToolCalls.has(blockIndex)) events.push(...releaseToolCall(blockIndex));
      if (!itemAt(blockIndex).done) events.push(...close(blockIndex, block));
    });
    const items = output.map((item) => {
      if (!item.done) throw new Error('An output item was left open');
      return item.done;
    });
    const response = encodeFinalResponse(answer, context, items);
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
        case 'tool-call-start':
          if (context.sealReasoning || context.sealToolCallArtefact || isHeldWhole(blockAt(part.blockIndex))) {
            heldToolCalls.set(part.blockIndex, 0);
            return [];
          }
          return open(part.blockIndex, blockAt(part.blockIndex));
        case 'text-start':
        case 'reasoning-start':
          return open(part.blockIndex, blockAt(part.blockIndex));
        case 'text-delta': {
          if (!part.text) return [];
          const item = itemAt(part.blockIndex);
          return [
            event('response.output_text.delta', {
              item_id: item.itemId,
              output_index: item.outputIndex,
              content_index: 0,
              delta: part.text,
              logprobs: [],
            }),
          ];
        }
        case 'reasoning-delta': {
          if (!part.text) return [];
          const item = itemAt(part.blockIndex);
          const where = { item_id: item.itemId, output_index: item.outputIndex, summary_index: 0 };
          const events: ResponsesStreamEvent[] = [];
          if (!item.summaryStarted) {
            item.summaryStarted = true;
            events.push(
              event('response.reasoning_summary_part.added', { ...where, part: { type: 'summary_text', text: '' } }),
            );
          }
          events.push(event('response.reasoning_summary_text.delta', { ...where, delta: part.text }));
          return events;
        }
        case 'tool-call-delta': {
          if (!part.argumentsDelta) return [];
          const heldPieces = heldToolCalls.get(part.blockIndex);
          if (heldPieces !== undefined) {
            heldToolCalls.set(part.blockIndex, heldPieces + 1);
            return heldPieces + 1 < 2 || isHeldWhole(blockAt(part.blockIndex)) ? [] : releaseToolCall(part.blockIndex);
          }
          const item = itemAt(part.blockIndex);
          return [
            event('response.function_call_arguments.delta', {
              item_id: item.itemId,
              output_index: item.outputIndex,
              delta: part.argumentsDelta,
            }),
          ];
        }
        case 'tool-call-end':
          if (heldToolCalls.has(part.blockIndex)) return releaseToolCall(part.blockIndex);
          return [...close(part.blockIndex, blockAt(part.blockIndex)), ...artefactItem(blockAt(part.blockIndex))];
        case 'text-end':
        case 'reasoning-end':
          return close(part.blockIndex, blockAt(part.blockIndex));
        case 'error':
          // As OpenAI does: an `error` event (the SDK's stream rejects on it), then the terminal `response.failed`.
          return [
            event('error', { code: part.failure.code, message: part.failure.message, param: null }),
            ...terminate(),
          ];
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
