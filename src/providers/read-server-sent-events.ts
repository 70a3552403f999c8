import type { Readable } from 'node:stream';
import { createParser, type EventSourceMessage } from 'eventsource-parser';

/** Parses a vendor's SSE body incrementally, yielding each event as it completes (never buffering the whole body). */
export async function* readServerSentEvents(body: Readable): AsyncGenerator<EventSourceMessage> {
  const pending: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => pending.push(event) });
  // undici's body yields Buffers; a streaming decoder keeps characters split across chunks whole.
  const decoder = new TextDecoder();
  for await (const bytes of body as AsyncIterable<Uint8Array>) {
    parser.feed(decoder.decode(bytes, { stream: true }));
    while (pending.length > 0) yield pending.shift() as EventSourceMessage;
  }
  parser.feed(decoder.decode());
  // A last event not followed by a blank line is still complete once the body ended.
  parser.feed('\n\n');
  while (pending.length > 0) yield pending.shift() as EventSourceMessage;
}
