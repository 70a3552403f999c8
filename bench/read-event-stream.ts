// A streaming client that timestamps every server-sent event as it arrives, to see whether a path in the
// middle holds events back, merges them, or delays the first one.
import { performance } from 'node:perf_hooks';
import { request, type Dispatcher } from 'undici';

/** What arrived on one stream, with times in milliseconds since the request was sent. */
export interface StreamTiming {
  status: number;
  /** when the response head arrived */
  headersMs: number;
  /** when each complete event (ending in a blank line) arrived */
  eventTimesMs: number[];
  /** how many separate body chunks the events came in */
  reads: number;
  /** true when the last event was `data: [DONE]` */
  endedWithDone: boolean;
  /** for events stamped with their send time (`fp_sent_<Unix ms>`, paced simulator streams): arrival minus sending, in milliseconds */
  relayDelaysMs: number[];
}

const sendTimePattern = /"fp_sent_(\d+(?:\.\d+)?)"/;

/** Sends one streamed request and reads it to the end; `onFirstEvent` runs when the first event arrives. */
export async function readEventStream(options: {
  dispatcher: Dispatcher;
  url: string;
  authorization: string;
  body: string;
  onFirstEvent?: () => void;
}): Promise<StreamTiming> {
  const startedAt = performance.now();
  const response = await request(options.url, {
    method: 'POST',
    headers: { authorization: options.authorization, 'content-type': 'application/json', accept: 'text/event-stream' },
    body: options.body,
    dispatcher: options.dispatcher,
  });
  const timing: StreamTiming = {
    status: response.statusCode,
    headersMs: performance.now() - startedAt,
    eventTimesMs: [],
    reads: 0,
    endedWithDone: false,
    relayDelaysMs: [],
  };
  let previousByteWasNewline = false;
  let tail = '';
  let eventText = '';
  await new Promise<void>((resolve, reject) => {
    // 'data' events (not the async iterator, which may join buffered chunks) keep each network read separate.
    response.body.on('data', (chunk: Buffer) => {
      const arrivedAt = performance.now();
      const arrivedMs = arrivedAt - startedAt;
      timing.reads++;
      const text = chunk.toString('latin1');
      let eventStart = 0;
      for (let index = 0; index < chunk.length; index++) {
        const byte = chunk[index];
        if (byte === 0x0a) {
          if (previousByteWasNewline) {
            if (timing.eventTimesMs.length === 0) options.onFirstEvent?.();
            timing.eventTimesMs.push(arrivedMs);
            const sentAt = sendTimePattern.exec(eventText + text.slice(eventStart, index))?.[1];
            if (sentAt !== undefined) timing.relayDelaysMs.push(performance.timeOrigin + arrivedAt - Number(sentAt));
            eventText = '';
            eventStart = index + 1;
          }
          previousByteWasNewline = !previousByteWasNewline;
        } else if (byte !== 0x0d) {
          previousByteWasNewline = false;
        }
      }
      eventText += text.slice(eventStart);
      tail = (tail + text).slice(-32);
    });
    response.body.once('end', resolve);
    response.body.once('error', reject);
  });
  timing.endedWithDone = tail.endsWith('data: [DONE]\n\n');
  return timing;
}

/** Runs `count` tasks, at most `concurrency` at a time. */
export async function runWithConcurrency<Result>(
  count: number,
  concurrency: number,
  task: (index: number) => Promise<Result>,
): Promise<Result[]> {
  const results: Result[] = new Array(count);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      const index = next++;
      results[index] = await task(index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return results;
}
