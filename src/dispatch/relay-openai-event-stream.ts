import type { Readable } from 'node:stream';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { GatewayError } from '../core/gateway-error.js';
import { StreamTextDecoder } from '../core/stream-text-decoder.js';
import type { TokenUsage } from '../core/token-usage.js';
import { collectDeltaText } from '../providers/openai/collect-delta-text.js';
import { parseOpenAiUsage } from '../providers/openai/parse-openai-usage.js';
import { redactUpstreamText } from '../providers/openai/redact-upstream-text.js';
import type { ClientStreamWriter } from './client-stream-writer.js';
import { readUpstreamBody, type ChunkVerdict } from './read-upstream-body.js';
import { discardUpstreamBody, releaseUpstreamBody } from './release-upstream-body.js';
import {
  cutOffStreamError,
  failureBeforeFirstByte,
  maximumStreamEventCharacters,
  oversizedStreamEventError,
  unreadableStreamEventError,
} from './relay-stream-errors.js';

/** What a relayed stream produced. */
export interface RelayedStreamOutcome {
  /** usage from the vendor's usage chunk, if one arrived */
  usage: TokenUsage | undefined;
  /** true when the stream ended with `[DONE]` */
  completed: boolean;
  /** the error sent to the client as the stream's last event, if any */
  error: GatewayError | undefined;
  /** Unix milliseconds when the first event was written to the client */
  firstEventAt: number | undefined;
  /** text generated so far, kept only until a usage chunk arrives (then undefined) */
  generatedText: string | undefined;
}

/** Thrown when the upstream stream fails before anything reached the client, so another channel may be tried. */
export class StreamFailedBeforeFirstEvent extends Error {
  /** the vendor's failure (an error event, an unreadable event) when there was one; a transport failure otherwise */
  readonly error: GatewayError | undefined;

  constructor(message: string, error?: GatewayError) {
    super(message);
    this.error = error;
  }
}

const usagePattern = /"usage"\s*:\s*\{/;

/**
 * Relays an upstream OpenAI SSE stream to the client event by event, as it arrives, unchanged (the fast path).
 * The vendor is always asked for usage; its usage-only chunk is dropped unless the client asked for it.
 */
export async function relayOpenAiEventStream(options: {
  upstreamBody: Readable;
  writer: ClientStreamWriter;
  clientWantsUsage: boolean;
  /** the channel's secret and host, removed from vendor error messages */
  knownSecrets: readonly string[];
  /** removes the channel's own secrets (and key-shaped strings) from a vendor's error text, after knownSecrets */
  redact?: (text: string) => string;
  /** the most characters one event may hold (default maximumStreamEventCharacters) */
  maxEventCharacters?: number;
  /** sees each upstream event before it is relayed (the span's response facts); absent when nothing is traced */
  observeEvent?: ((eventName: string | undefined, data: string) => void) | undefined;
  /**
   * the `type` of the event that completes a stream without `[DONE]` (speech's `speech.audio.done`): relayed, and the
   * stream then ends as it is, with no `[DONE]` added; absent: `[DONE]` completes it
   */
  terminalEventType?: string | undefined;
}): Promise<RelayedStreamOutcome> {
  const { upstreamBody, writer, clientWantsUsage } = options;
  const terminalMarker = options.terminalEventType === undefined ? undefined : `"${options.terminalEventType}"`;
  const outcome: RelayedStreamOutcome = {
    usage: undefined,
    completed: false,
    error: undefined,
    firstEventAt: undefined,
    generatedText: undefined,
  };
  // Events before the usage chunk, read for their text only if the stream ends without one (no regex per event).
  const eventsBeforeUsage: string[] = [];
  // Events parsed from one upstream read leave in one client write (the first event excepted): they arrived together,
  // and a write per event would cost a system call each.
  const eventsOfThisRead: string[] = [];
  let upstreamError: GatewayError | undefined;

  const onEvent = (event: EventSourceMessage): void => {
    if (outcome.completed || upstreamError) return;
    const data = event.data;
    if (data === '[DONE]') {
      outcome.completed = true;
      return;
    }
    options.observeEvent?.(event.event, data);
    if (event.event === 'error' || data.startsWith('{"error"')) {
      upstreamError = mapStreamErrorEvent(data, options.knownSecrets, options.redact);
      return;
    }
    // A chunk is a JSON object: anything else (an HTML page, cut-off JSON) ends the answer instead of reaching the client.
    if (!looksLikeJsonObject(data)) {
      upstreamError = unreadableStreamEventError();
      return;
    }
    if (usagePattern.test(data)) {
      const chunk = safeParse(data) as { usage?: unknown; choices?: unknown[] } | undefined;
      if (chunk === undefined) {
        upstreamError = unreadableStreamEventError();
        return;
      }
      const usage = parseOpenAiUsage(chunk.usage);
      if (usage) outcome.usage = usage;
      if (usage && !clientWantsUsage && Array.isArray(chunk.choices) && chunk.choices.length === 0) return;
    } else if (!outcome.usage && !writer.clientGone) {
      eventsBeforeUsage.push(data);
    }
    if (terminalMarker !== undefined && data.includes(terminalMarker)) outcome.completed = true;
    // A stream drained after its client left is parsed for its usage and its events dropped.
    if (writer.clientGone) return;
    eventsOfThisRead.push(data);
    // The first event leaves at once, not after the rest of its read is parsed: time to first token is what a user waits on.
    if (writer.firstEventAt === undefined) {
      writer.writeEvents(eventsOfThisRead);
      eventsOfThisRead.length = 0;
    }
  };

  // An event that never ends (no blank line) would otherwise be buffered whole, however large.
  const parser = createParser({
    onEvent,
    maxBufferSize: options.maxEventCharacters ?? maximumStreamEventCharacters,
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') upstreamError ??= oversizedStreamEventError();
    },
  });
  // undici's body yields Buffers whatever its encoding; a streaming decoder keeps characters split across chunks whole.
  const decoder = new StreamTextDecoder();
  const onChunk = (bytes: Buffer): ChunkVerdict | Promise<ChunkVerdict> => {
    if (upstreamError) return 'stop';
    writer.countReadBytes(bytes.length);
    parser.feed(decoder.decode(bytes));
    writer.writeEvents(eventsOfThisRead);
    eventsOfThisRead.length = 0;
    // The text kept for a stream without usage is dropped once its client left: its bill is the usage or the hold.
    if (writer.clientGone) eventsBeforeUsage.length = 0;
    if (outcome.completed || upstreamError || writer.mustStopReading) return 'stop';
    if (writer.clientIsFull)
      return writer.waitWhileClientIsFull().then(() => (writer.mustStopReading ? 'stop' : 'continue'));
    return 'continue';
  };
  try {
    await readUpstreamBody(upstreamBody, onChunk);
  } catch (error) {
    if (writer.firstEventAt === undefined && !writer.clientGone) throw new StreamFailedBeforeFirstEvent(String(error));
  }

  outcome.firstEventAt = writer.firstEventAt;
  if (!outcome.usage) outcome.generatedText = generatedTextOf(eventsBeforeUsage);
  // A complete answer lets the vendor's connection be reused; anything else closes it.
  if (outcome.completed && !writer.mustStopReading) releaseUpstreamBody(upstreamBody);
  else discardUpstreamBody(upstreamBody);
  if (writer.clientGone) return outcome;
  if (writer.firstEventAt === undefined && !outcome.completed) {
    // Nothing reached the client: a vendor error or an unreadable first event lets another channel answer.
    throw new StreamFailedBeforeFirstEvent(
      upstreamError?.message ?? 'upstream stream ended before its first event',
      upstreamError && failureBeforeFirstByte(upstreamError),
    );
  }
  if (outcome.completed) {
    if (terminalMarker === undefined) writer.endWithDone();
    else writer.endWithFrames([]);
    return outcome;
  }
  outcome.error = upstreamError ?? cutOffStreamError();
  writer.endWithErrorEvent(outcome.error);
  return outcome;
}

function mapStreamErrorEvent(
  data: string,
  knownSecrets: readonly string[],
  redact: ((text: string) => string) | undefined,
): GatewayError {
  const parsed = safeParse(data) as { error?: { message?: unknown; type?: unknown; code?: unknown } } | undefined;
  const redacted =
    typeof parsed?.error?.message === 'string' ? redactUpstreamText(parsed.error.message, knownSecrets) : undefined;
  const message = redacted === undefined ? 'The upstream vendor failed mid-stream.' : (redact?.(redacted) ?? redacted);
  const kind = `${String(parsed?.error?.type ?? '')} ${String(parsed?.error?.code ?? '')}`;
  if (/rate_limit/.test(kind)) return new GatewayError('rate_limit_exceeded', message);
  if (/overloaded|unavailable/.test(kind)) return new GatewayError('service_unavailable', message);
  return new GatewayError('server_error', message);
}

/** A cheap check that an event's data is one JSON object (first and last characters), without parsing it. */
function looksLikeJsonObject(data: string): boolean {
  if (data.charCodeAt(0) === openBrace && data.charCodeAt(data.length - 1) === closeBrace) return true;
  const trimmed = data.trim();
  return trimmed.charCodeAt(0) === openBrace && trimmed.charCodeAt(trimmed.length - 1) === closeBrace;
}

const openBrace = 0x7b;
const closeBrace = 0x7d;

function generatedTextOf(events: readonly string[]): string {
  const parts: string[] = [];
  for (const data of events) collectDeltaText(data, parts);
  return parts.join('');
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
