import type { Readable } from 'node:stream';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { StreamTextDecoder } from '../core/stream-text-decoder.js';

/** The most characters one vendor event may hold (16 Mi; the relays in src/dispatch use the same bound). */
export const maximumEventCharacters = 16 * 1024 * 1024;

/**
 * Parses a vendor's SSE body incrementally, yielding each event as it completes (never buffering the whole body).
 * Leaving early (a decoder returning at its terminal event) does not destroy the body: the relay reads the rest of a
 * complete answer so the vendor's keep-alive connection is reused, and discards anything else (release-upstream-body.ts).
 */
export async function* readServerSentEvents(
  body: Readable,
  maxEventCharacters: number = maximumEventCharacters,
): AsyncGenerator<EventSourceMessage> {
  const pending: EventSourceMessage[] = [];
  let oversized = false;
  // An event that never ends (no blank line) would otherwise be buffered whole, however large: the read fails instead.
  const parser = createParser({
    onEvent: (event) => pending.push(event),
    maxBufferSize: maxEventCharacters,
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') oversized = true;
    },
  });
  // undici's body yields Buffers; a streaming decoder keeps characters split across chunks whole.
  const decoder = new StreamTextDecoder();
  for await (const bytes of body.iterator({ destroyOnReturn: false }) as AsyncIterable<Uint8Array>) {
    parser.feed(decoder.decode(bytes));
    while (pending.length > 0) yield pending.shift() as EventSourceMessage;
    if (oversized) throw new Error(`A vendor stream event is larger than ${maxEventCharacters} characters.`);
  }
  parser.feed(decoder.end());
  // A last event not followed by a blank line is still complete once the body ended.
  parser.feed('\n\n');
  while (pending.length > 0) yield pending.shift() as EventSourceMessage;
}
