import type { ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { GatewayError } from '../../core/gateway-error.js';
import type { TokenUsage } from '../../core/token-usage.js';
import { collectDeltaText } from './collect-delta-text.js';
import { parseOpenAiUsage } from './parse-openai-usage.js';
import { redactUpstreamText } from './redact-upstream-text.js';
import { waitForClientDrain } from '../wait-for-client-drain.js';

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
 * Relays an upstream OpenAI SSE stream to the client event by event, as it arrives. The response head is
 * written only when the first upstream event arrives, so a stream that dies before that can fail over.
 * The vendor is always asked for usage; its usage-only chunk is dropped unless the client asked for it.
 */
export async function relayOpenAiEventStream(options: {
  upstreamBody: Readable;
  response: ServerResponse;
  clientWantsUsage: boolean;
  responseHeaders: Record<string, string>;
  clock: () => number;
  /** the channel's secret and host, removed from vendor error messages */
  knownSecrets: readonly string[];
  /** how long a client that stopped reading may stall the stream before it is cut, in milliseconds (0 = forever) */
  clientDrainTimeoutMs: number;
}): Promise<RelayedStreamOutcome> {
  const { upstreamBody, response, clientWantsUsage } = options;
  const outcome: RelayedStreamOutcome = { usage: undefined, completed: false, error: undefined, firstEventAt: undefined, generatedText: undefined };
  const generatedParts: string[] = [];
  let upstreamError: GatewayError | undefined;

  const writeEvent = (data: string): void => {
    if (outcome.firstEventAt === undefined) {
      response.writeHead(200, { ...options.responseHeaders, ...eventStreamHeaders });
      response.flushHeaders();
      outcome.firstEventAt = options.clock();
    }
    response.write(`data: ${data}\n\n`);
  };

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
      collectDeltaText(data, generatedParts);
    }
    writeEvent(data);
  };

  const parser = createParser({ onEvent });
  // undici's body yields Buffers whatever its encoding; a streaming decoder keeps characters split across chunks whole.
  const decoder = new TextDecoder();
  try {
    for await (const bytes of upstreamBody as AsyncIterable<Uint8Array>) {
      parser.feed(decoder.decode(bytes, { stream: true }));
      if (outcome.completed || upstreamError) break;
      if (response.writableNeedDrain) await waitForClientDrain(response, options.clientDrainTimeoutMs);
      if (response.destroyed) break;
    }
  } catch (error) {
    if (outcome.firstEventAt === undefined && !response.destroyed) throw new StreamFailedBeforeFirstEvent(String(error));
  }

  if (!outcome.usage) outcome.generatedText = generatedParts.join('');
  if (response.destroyed) return outcome;
  if (outcome.firstEventAt === undefined && !outcome.completed && !upstreamError) {
    throw new StreamFailedBeforeFirstEvent('upstream stream ended before its first event');
  }
  if (outcome.completed) {
    if (outcome.firstEventAt === undefined) writeEventStreamHead(response, options.responseHeaders);
    response.end('data: [DONE]\n\n');
    upstreamBody.destroy();
    return outcome;
  }
  outcome.error = upstreamError ?? new GatewayError('server_error', 'The upstream stream ended unexpectedly; the answer is incomplete.');
  upstreamBody.destroy();
  if (outcome.firstEventAt === undefined) writeEventStreamHead(response, options.responseHeaders);
  // An error event and no [DONE]: the client must not mistake a cut-off answer for a complete one.
  response.end(`data: ${JSON.stringify(outcome.error.toBody())}\n\n`);
  return outcome;
}

/** Headers of every event stream the gateway sends. */
export const eventStreamHeaders = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
} as const;

function writeEventStreamHead(response: ServerResponse, headers: Record<string, string>): void {
  response.writeHead(200, { ...headers, ...eventStreamHeaders });
}

function mapStreamErrorEvent(data: string, knownSecrets: readonly string[]): GatewayError {
  const parsed = safeParse(data) as { error?: { message?: unknown; type?: unknown; code?: unknown } } | undefined;
  const message = typeof parsed?.error?.message === 'string' ? redactUpstreamText(parsed.error.message, knownSecrets) : 'The upstream vendor failed mid-stream.';
  const kind = `${String(parsed?.error?.type ?? '')} ${String(parsed?.error?.code ?? '')}`;
  if (/rate_limit/.test(kind)) return new GatewayError('rate_limit_exceeded', message);
  if (/overloaded|unavailable/.test(kind)) return new GatewayError('service_unavailable', message);
  return new GatewayError('server_error', message);
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
