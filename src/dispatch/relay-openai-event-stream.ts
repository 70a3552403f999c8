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
export class StreamFailedBeforeFirstEvent extends Error {}

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
}): Promise<RelayedStreamOutcome> {
  const { upstreamBody, writer, clientWantsUsage } = options;
  const outcome: RelayedStreamOutcome = { usage: undefined, completed: false, error: undefined, firstEventAt: undefined, generatedText: undefined };
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
    if (event.event === 'error' || data.startsWith('{"error"')) {
      upstreamError = mapStreamErrorEvent(data, options.knownSecrets);
      return;
    }
    if (usagePattern.test(data)) {
      const chunk = safeParse(data) as { usage?: unknown; choices?: unknown[] } | undefined;
      const usage = parseOpenAiUsage(chunk?.usage);
      if (usage) outcome.usage = usage;
      if (usage && !clientWantsUsage && Array.isArray(chunk?.choices) && chunk.choices.length === 0) return;
    } else if (!outcome.usage) {
      eventsBeforeUsage.push(data);
    }
    eventsOfThisRead.push(data);
    // The first event leaves at once, not after the rest of its read is parsed: time to first token is what a user waits on.
    if (writer.firstEventAt === undefined) {
      writer.writeEvents(eventsOfThisRead);
      eventsOfThisRead.length = 0;
    }
  };

  const parser = createParser({ onEvent });
  // undici's body yields Buffers whatever its encoding; a streaming decoder keeps characters split across chunks whole.
  const decoder = new StreamTextDecoder();
  const onChunk = (bytes: Buffer): ChunkVerdict | Promise<ChunkVerdict> => {
    parser.feed(decoder.decode(bytes));
    writer.writeEvents(eventsOfThisRead);
    eventsOfThisRead.length = 0;
    if (outcome.completed || upstreamError || writer.clientGone) return 'stop';
    if (writer.clientIsFull) return writer.waitWhileClientIsFull().then(() => (writer.clientGone ? 'stop' : 'continue'));
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
  if (outcome.completed && !writer.clientGone) releaseUpstreamBody(upstreamBody);
  else discardUpstreamBody(upstreamBody);
  if (writer.clientGone) return outcome;
  if (writer.firstEventAt === undefined && !outcome.completed && !upstreamError) {
    throw new StreamFailedBeforeFirstEvent('upstream stream ended before its first event');
  }
  if (outcome.completed) {
    writer.endWithDone();
    return outcome;
  }
  outcome.error = upstreamError ?? new GatewayError('server_error', 'The upstream stream ended unexpectedly; the answer is incomplete.');
  writer.endWithErrorEvent(outcome.error);
  return outcome;
}

function mapStreamErrorEvent(data: string, knownSecrets: readonly string[]): GatewayError {
  const parsed = safeParse(data) as { error?: { message?: unknown; type?: unknown; code?: unknown } } | undefined;
  const message = typeof parsed?.error?.message === 'string' ? redactUpstreamText(parsed.error.message, knownSecrets) : 'The upstream vendor failed mid-stream.';
  const kind = `${String(parsed?.error?.type ?? '')} ${String(parsed?.error?.code ?? '')}`;
  if (/rate_limit/.test(kind)) return new GatewayError('rate_limit_exceeded', message);
  if (/overloaded|unavailable/.test(kind)) return new GatewayError('service_unavailable', message);
  return new GatewayError('server_error', message);
}

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
