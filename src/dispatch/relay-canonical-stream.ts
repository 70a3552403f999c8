import type { Readable } from 'node:stream';
import type { CanonicalStreamFailure, CanonicalStreamPart } from '../core/canonical/canonical-stream-part.js';
import type { ClientStreamEncoder } from '../core/canonical/client-answer-codec.js';
import { GatewayError } from '../core/gateway-error.js';
import { redactUpstreamText } from '../providers/openai/redact-upstream-text.js';
import type { ClientStreamWriter } from './client-stream-writer.js';
import { discardUpstreamBody, releaseUpstreamBody } from './release-upstream-body.js';
import type { RelayedStreamOutcome } from './relay-openai-event-stream.js';
import { cutOffStreamError, failureBeforeFirstByte } from './relay-stream-errors.js';
import { tokenUsageOfCanonical } from '../core/token-usage-of-canonical.js';

/** How relaying a translated stream ended. */
export type TranslatedRelayResult =
  /** bytes reached the client (or the client left): the attempt is over, whatever the outcome */
  | { kind: 'relayed'; outcome: RelayedStreamOutcome }
  /** nothing reached the client yet, so another channel may be tried */
  | { kind: 'failed-before-first-byte'; error: GatewayError };

/**
 * Relays canonical parts to the client as the client protocol's frames (the codec's stream encoder) through the same
 * writer as the pass-through relay. The encoder's opening frames wait for the first frames a part causes, so an
 * upstream that fails before its first part can still fail over. A departed client stops the reading; an error after
 * the first byte ends the stream with the encoder's `fail` frames; a finished stream ends with its `end` frames.
 */
export async function relayCanonicalStream(options: {
  parts: AsyncIterable<CanonicalStreamPart>;
  upstreamBody: Readable;
  writer: ClientStreamWriter;
  encoder: ClientStreamEncoder;
  /** the codec's wait before the last bytes (see ClientAnswerCodec.beforeLastBytes) */
  beforeLastBytes?: () => Promise<void>;
  /** removes the channel's own secrets from a vendor's error text (redactChannelSecrets); key shapes only when absent */
  redact?: (text: string) => string;
  /** sees each decoded part (the span's response facts); absent when nothing is traced */
  observePart?: ((part: CanonicalStreamPart) => void) | undefined;
}): Promise<TranslatedRelayResult> {
  const { writer, upstreamBody, encoder } = options;
  const outcome: RelayedStreamOutcome = {
    usage: undefined,
    completed: false,
    error: undefined,
    firstEventAt: undefined,
    generatedText: undefined,
  };
  const generatedParts: string[] = [];
  let openingFrames: string[] | undefined = encoder.start();
  let upstreamFailure: CanonicalStreamFailure | undefined;
  let finished = false;

  try {
    for await (const part of options.parts) {
      if (part.type === 'error') {
        upstreamFailure = {
          code: part.failure.code,
          message: options.redact ? options.redact(part.failure.message) : redactUpstreamText(part.failure.message),
        };
        break;
      }
      options.observePart?.(part);
      if (part.type === 'usage') outcome.usage = tokenUsageOfCanonical(part.usage);
      if (part.type === 'finish') finished = true;
      if (writer.clientGone) {
        // Drained after its client left: parsed for its usage, its parts dropped (the decoder reads the bytes).
        generatedParts.length = 0;
        writer.countReadBytes(partSizeOf(part));
        // Read to the end: Bedrock's usage (its metadata event) follows the finish.
        if (writer.mustStopReading) break;
        continue;
      }
      collectGeneratedText(part, generatedParts);
      const frames = encoder.push(part);
      if (frames.length === 0) continue;
      writer.writeFrames(openingFrames ? [...openingFrames, ...frames] : frames);
      openingFrames = undefined;
      await writer.waitWhileClientIsFull();
      if (writer.mustStopReading) break;
    }
  } catch {
    // The upstream connection broke or sent something unreadable: handled below like an early end.
  }
  // A complete answer lets the vendor's connection be reused; anything else closes it.
  if (finished && !upstreamFailure && !writer.mustStopReading) releaseUpstreamBody(upstreamBody);
  else discardUpstreamBody(upstreamBody);
  if (!outcome.usage) outcome.generatedText = generatedParts.join('');
  outcome.firstEventAt = writer.firstEventAt;
  if (writer.clientGone) return { kind: 'relayed', outcome };

  if (finished && !upstreamFailure) {
    const closingFrames = [...(openingFrames ?? []), ...encoder.end()];
    await options.beforeLastBytes?.();
    writer.endWithFrames(closingFrames);
    outcome.firstEventAt = writer.firstEventAt;
    outcome.completed = true;
    return { kind: 'relayed', outcome };
  }
  if (writer.firstEventAt === undefined) {
    const retryable = upstreamFailure
      ? failureBeforeFirstByte(new GatewayError(upstreamFailure.code, upstreamFailure.message))
      : new GatewayError('service_unavailable', 'The upstream vendor could not be reached; retry later.');
    return { kind: 'failed-before-first-byte', error: retryable };
  }
  const failure = upstreamFailure ?? { code: 'server_error', message: cutOffStreamError().message };
  outcome.error = new GatewayError(failure.code, failure.message);
  const failureFrames = encoder.fail(failure);
  await options.beforeLastBytes?.();
  writer.endWithFrames(failureFrames);
  return { kind: 'relayed', outcome };
}

/** Bytes a decoded part stands for, near enough for a drain's byte cap: its text and a little framing. */
function partSizeOf(part: CanonicalStreamPart): number {
  const framing = 32;
  if (part.type === 'text-delta' || part.type === 'reasoning-delta') return framing + part.text.length;
  if (part.type === 'tool-call-delta') return framing + part.argumentsDelta.length;
  return framing;
}

function collectGeneratedText(part: CanonicalStreamPart, into: string[]): void {
  if (part.type === 'text-delta' || part.type === 'reasoning-delta') into.push(part.text);
  else if (part.type === 'tool-call-delta') into.push(part.argumentsDelta);
  else if (part.type === 'tool-call-start') into.push(part.name);
}
