// ConverseStream answers in real AWS event-stream binary framing, encoded with the AWS codec.
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import type { ConverseAnswer } from './bedrock-simulator-model.js';
import { splitIntoWordPieces } from './openai-simulator-text.js';

/** One event of a ConverseStream answer: its `:event-type` and JSON payload. */
export interface ConverseStreamEvent {
  eventType: string;
  payload: Record<string, unknown>;
}

const codec = new EventStreamCodec(toUtf8, fromUtf8);
const argumentPieceLength = 7;

/** Encodes one event frame with the headers Bedrock sends (`:event-type`, `:content-type`, `:message-type: event`). */
export function encodeStreamEvent(event: ConverseStreamEvent): Uint8Array {
  // Bedrock pads every payload with a `p` field of varying length so frame sizes do not leak the content.
  const payload = { ...event.payload, p: 'abcdefghijklmnopqrstuvwxyz'.slice(0, (event.eventType.length * 3) % 26) };
  return codec.encode({
    headers: {
      ':event-type': { type: 'string', value: event.eventType },
      ':content-type': { type: 'string', value: 'application/json' },
      ':message-type': { type: 'string', value: 'event' },
    },
    body: fromUtf8(JSON.stringify(payload)),
  });
}

/** Encodes an exception frame (`:message-type: exception`), e.g. `throttlingException` or `modelStreamErrorException`. */
export function encodeStreamException(exceptionType: string, message: string): Uint8Array {
  return codec.encode({
    headers: {
      ':exception-type': { type: 'string', value: exceptionType },
      ':content-type': { type: 'string', value: 'application/json' },
      ':message-type': { type: 'string', value: 'exception' },
    },
    body: fromUtf8(JSON.stringify({ message })),
  });
}

/** The events of an answer in Bedrock's order: messageStart, blocks (start, deltas, stop), messageStop, metadata. */
export function converseStreamEvents(answer: ConverseAnswer): ConverseStreamEvent[] {
  const events: ConverseStreamEvent[] = [{ eventType: 'messageStart', payload: { role: 'assistant' } }];
  answer.blocks.forEach((block, contentBlockIndex) => {
    if (block.kind === 'text') {
      for (const piece of splitIntoWordPieces(block.text))
        events.push({ eventType: 'contentBlockDelta', payload: { contentBlockIndex, delta: { text: piece } } });
    } else {
      events.push({
        eventType: 'contentBlockStart',
        payload: { contentBlockIndex, start: { toolUse: { toolUseId: block.toolUseId, name: block.name } } },
      });
      const input = JSON.stringify(block.input);
      for (let start = 0; start < input.length; start += argumentPieceLength) {
        events.push({
          eventType: 'contentBlockDelta',
          payload: {
            contentBlockIndex,
            delta: { toolUse: { input: input.slice(start, start + argumentPieceLength) } },
          },
        });
      }
    }
    events.push({ eventType: 'contentBlockStop', payload: { contentBlockIndex } });
  });
  events.push({ eventType: 'messageStop', payload: { stopReason: answer.stopReason } });
  events.push({ eventType: 'metadata', payload: { usage: answer.usage, metrics: { latencyMs: 42 } } });
  return events;
}
