// The event sequence of a streamed response, as OpenAI sends it (sequence numbers are stamped by the stream writer).
import type { FunctionCallItem, MessageItem, ReasoningItem, ResponseItem } from './openai-simulator-responses-items.js';
import { failedResponse, type ResponseObject } from './openai-simulator-responses-object.js';
import type { EventStreamPlan } from './openai-simulator-stream.js';
import { randomIdentifier, splitIntoWordPieces } from './openai-simulator-text.js';

/** One event before numbering: its `type` and fields. */
type StreamEvent = { type: string } & Record<string, unknown>;

const argumentPieceCount = 3;

/** Plans the stream: created and in_progress, each item's events in output order, then the terminal event. */
export function responsesStreamPlan(
  start: ResponseObject,
  final: ResponseObject,
  includeObfuscation: boolean,
): EventStreamPlan {
  const obfuscate = (event: StreamEvent): StreamEvent =>
    includeObfuscation ? { ...event, obfuscation: randomIdentifier().slice(0, 1 + (event.type.length % 15)) } : event;
  const perItem = final.output.map((item, outputIndex) => itemEvents(item, outputIndex, obfuscate));
  const flat = perItem.flat();
  // Content (paced, and where a broken stream breaks) starts at the first delta, so a break always follows some text.
  const firstDelta = flat.findIndex((event) => event.type.endsWith('.delta'));
  const leadingCount = firstDelta === -1 ? flat.length : firstDelta;
  const terminalType = final.status === 'incomplete' ? 'response.incomplete' : 'response.completed';
  return {
    framing: 'responses',
    leadingChunks: [
      { type: 'response.created', response: start },
      { type: 'response.in_progress', response: start },
      ...flat.slice(0, leadingCount),
    ],
    contentChunks: flat.slice(leadingCount),
    trailingChunks: [{ type: terminalType, response: final }],
    failureChunks: [
      {
        type: 'error',
        code: 'server_error',
        message: 'The server had an error while processing your request.',
        param: null,
      },
      { type: 'response.failed', response: failedResponse(start) },
    ],
  };
}

function itemEvents(
  item: ResponseItem,
  outputIndex: number,
  obfuscate: (event: StreamEvent) => StreamEvent,
): StreamEvent[] {
  switch (item.type) {
    case 'message':
      return messageEvents(item, outputIndex, obfuscate);
    case 'function_call':
      return functionCallEvents(item, outputIndex, obfuscate);
    case 'reasoning':
      return reasoningEvents(item, outputIndex, obfuscate);
    case 'function_call_output':
      throw new Error('a model never outputs a function_call_output');
    default:
      return assertNever(item);
  }
}

function messageEvents(
  item: MessageItem,
  outputIndex: number,
  obfuscate: (event: StreamEvent) => StreamEvent,
): StreamEvent[] {
  const where = { item_id: item.id, output_index: outputIndex };
  const text = item.content.map((part) => String(part.text ?? '')).join('');
  const part = { type: 'output_text', text: '', annotations: [], logprobs: [] };
  return [
    {
      type: 'response.output_item.added',
      output_index: outputIndex,
      item: { ...item, status: 'in_progress', content: [] },
    },
    { type: 'response.content_part.added', ...where, content_index: 0, part },
    ...splitIntoWordPieces(text).map((delta) =>
      obfuscate({ type: 'response.output_text.delta', ...where, content_index: 0, delta, logprobs: [] }),
    ),
    { type: 'response.output_text.done', ...where, content_index: 0, text, logprobs: [] },
    { type: 'response.content_part.done', ...where, content_index: 0, part: { ...part, text } },
    { type: 'response.output_item.done', output_index: outputIndex, item },
  ];
}

function functionCallEvents(
  item: FunctionCallItem,
  outputIndex: number,
  obfuscate: (event: StreamEvent) => StreamEvent,
): StreamEvent[] {
  const where = { item_id: item.id, output_index: outputIndex };
  return [
    {
      type: 'response.output_item.added',
      output_index: outputIndex,
      item: { ...item, arguments: '', status: 'in_progress' },
    },
    ...splitArguments(item.arguments).map((delta) =>
      obfuscate({ type: 'response.function_call_arguments.delta', ...where, delta }),
    ),
    { type: 'response.function_call_arguments.done', ...where, name: item.name, arguments: item.arguments },
    { type: 'response.output_item.done', output_index: outputIndex, item },
  ];
}

/** A reasoning item streams its summary parts; OpenAI shows `encrypted_content` only on the finished item. */
function reasoningEvents(
  item: ReasoningItem,
  outputIndex: number,
  obfuscate: (event: StreamEvent) => StreamEvent,
): StreamEvent[] {
  const where = { item_id: item.id, output_index: outputIndex };
  const { encrypted_content: _hidden, ...visible } = item;
  const summaryEvents = item.summary.flatMap((summary, summaryIndex): StreamEvent[] => [
    {
      type: 'response.reasoning_summary_part.added',
      ...where,
      summary_index: summaryIndex,
      part: { type: 'summary_text', text: '' },
    },
    ...splitIntoWordPieces(summary.text).map((delta) =>
      obfuscate({ type: 'response.reasoning_summary_text.delta', ...where, summary_index: summaryIndex, delta }),
    ),
    { type: 'response.reasoning_summary_text.done', ...where, summary_index: summaryIndex, text: summary.text },
    { type: 'response.reasoning_summary_part.done', ...where, summary_index: summaryIndex, part: summary },
  ]);
  return [
    { type: 'response.output_item.added', output_index: outputIndex, item: { ...visible, summary: [] } },
    ...summaryEvents,
    { type: 'response.output_item.done', output_index: outputIndex, item },
  ];
}

function splitArguments(argumentsText: string): string[] {
  const pieceLength = Math.max(1, Math.ceil(argumentsText.length / argumentPieceCount));
  const pieces: string[] = [];
  for (let start = 0; start < argumentsText.length; start += pieceLength)
    pieces.push(argumentsText.slice(start, start + pieceLength));
  return pieces;
}

function assertNever(value: never): never {
  throw new Error(`unexpected item ${JSON.stringify(value)}`);
}
