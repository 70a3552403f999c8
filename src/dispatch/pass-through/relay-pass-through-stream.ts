import type { Readable } from 'node:stream';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { GatewayError } from '../../core/gateway-error.js';
import { StreamTextDecoder } from '../../core/stream-text-decoder.js';
import type { TokenUsage } from '../../core/token-usage.js';
import type { ClientStreamWriter } from '../client-stream-writer.js';
import { readUpstreamBody } from '../read-upstream-body.js';
import { discardUpstreamBody, releaseUpstreamBody } from '../release-upstream-body.js';
import {
  cutOffStreamError,
  failureBeforeFirstByte,
  maximumStreamEventCharacters,
  oversizedStreamEventError,
} from '../relay-stream-errors.js';
import type { PassThroughStreamRelay } from './pass-through-protocol.js';

/** What a relayed pass-through stream produced. */
export interface PassThroughStreamOutcome {
  usage: TokenUsage | undefined;
  /** Unix milliseconds when the first frame was written to the client */
  firstEventAt: number | undefined;
  /** the failure the stream ended with (a vendor failure event, or a cut-off upstream), if any */
  error: GatewayError | undefined;
  /** the text generated while no usage had arrived: what a stream that ends without usage is billed (plus its input) */
  generatedText: string | undefined;
}

/** How relaying went: failed before any byte reached the client (another channel may be tried), or relayed. */
export type PassThroughStreamResult =
  { kind: 'failed-before-first-byte'; error: GatewayError } | { kind: 'relayed'; outcome: PassThroughStreamOutcome };

const cutOffError = (): GatewayError => cutOffStreamError();

/**
 * The one relay loop of every pass-through protocol: parses the upstream SSE as it arrives (eventsource-parser),
 * hands each event to the protocol's relay, and writes the frames it returns. The head goes out with the first
 * frame, so an upstream that fails before it can still fail over; writes wait for a client that stopped reading;
 * a client that leaves stops the relay; an upstream that ends without its terminal event gets the protocol's
 * failure ending, never a fake success.
 */
export async function relayPassThroughStream(options: {
  upstreamBody: Readable;
  writer: ClientStreamWriter;
  relay: PassThroughStreamRelay;
  /** the most characters one event may hold (default maximumStreamEventCharacters) */
  maxEventCharacters?: number;
  /** sees each upstream event before it is relayed (the span's response facts); absent when nothing is traced */
  observeEvent?: ((eventName: string | undefined, data: string) => void) | undefined;
}): Promise<PassThroughStreamResult> {
  const { upstreamBody, writer, relay } = options;
  const outcome: PassThroughStreamOutcome = {
    usage: undefined,
    firstEventAt: undefined,
    error: undefined,
    generatedText: undefined,
  };
  const generatedText: string[] = [];
  const pending: EventSourceMessage[] = [];
  let finished = false;
  let oversized = false;
  // An event that never ends (no blank line) would otherwise be buffered whole, however large.
  const parser = createParser({
    onEvent: (event) => pending.push(event),
    maxBufferSize: options.maxEventCharacters ?? maximumStreamEventCharacters,
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') oversized = true;
    },
  });
  // undici's body yields Buffers; a streaming decoder keeps characters split across chunks whole.
  const decoder = new StreamTextDecoder();

  const relayPending = async (): Promise<void> => {
    while (pending.length > 0 && !finished) {
      const event = pending.shift();
      if (!event) break;
      options.observeEvent?.(event.event, event.data);
      const step = await relay.relayEvent(event);
      if (step.usage) outcome.usage = step.usage;
      // Text is kept to count tokens of a stream the vendor cut; a drained stream is charged its usage or its hold.
      if (step.generatedText && !writer.clientGone) generatedText.push(step.generatedText);
      if (step.failure) outcome.error = step.failure;
      // A failure reported before anything reached the client is left unwritten so another channel can answer.
      if (step.failure && writer.firstEventAt === undefined) {
        finished = true;
        return;
      }
      // Once the client left the frames are dropped: a drained stream is read for its usage only.
      writer.writeFrames(step.frames);
      if (step.terminal) finished = true;
    }
  };

  let readFailed = false;
  try {
    await readUpstreamBody(upstreamBody, async (bytes) => {
      writer.countReadBytes(bytes.length);
      parser.feed(decoder.decode(bytes));
      await relayPending();
      if (oversized && !finished) {
        outcome.error ??= oversizedStreamEventError();
        return 'stop';
      }
      if (finished) return 'stop';
      await writer.waitWhileClientIsFull();
      return writer.mustStopReading ? 'stop' : 'continue';
    });
  } catch {
    readFailed = true;
  }
  // A complete answer lets the vendor's connection be reused; anything else closes it.
  if (finished && !outcome.error && !readFailed) releaseUpstreamBody(upstreamBody);
  else discardUpstreamBody(upstreamBody);
  outcome.firstEventAt = writer.firstEventAt;
  if (!outcome.usage) outcome.generatedText = generatedText.join('');
  if (writer.clientGone) return { kind: 'relayed', outcome };
  if (writer.firstEventAt === undefined)
    return { kind: 'failed-before-first-byte', error: failureBeforeFirstByte(outcome.error ?? cutOffError()) };
  if (finished && !outcome.error) {
    writer.endWithFrames([]);
    return { kind: 'relayed', outcome };
  }
  if (!finished || readFailed) outcome.error ??= cutOffError();
  const error = outcome.error ?? cutOffError();
  writer.endWithFrames(finished ? [] : relay.cutOff(error));
  return { kind: 'relayed', outcome };
}
