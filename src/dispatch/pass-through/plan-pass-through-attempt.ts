import type { Dispatcher } from 'undici';
import type { UpstreamAttemptResult } from '../../providers/upstream-attempt-result.js';
import { clientClosedFailure } from '../client-closed-failure.js';
import { ClientStreamWriter } from '../client-stream-writer.js';
import type { ClientSink } from '../client-sink.js';
import type { DispatchServices } from '../dispatch-services.js';
import type { AttemptValue, DispatchRequest } from '../dispatch-request.js';
import type { ForwardingControl } from '../forwarding-control.js';
import type { RoutableChannel } from '../../routing/routing-table.js';
import type { UpstreamHttpRequest } from '../send-upstream-request.js';
import { UnreadableUpstreamAnswer, type PassThroughProtocol } from './pass-through-protocol.js';
import { relayPassThroughStream } from './relay-pass-through-stream.js';
import type { ResponseFactsCollector } from '../response-facts-collector.js';
import { readCappedUpstreamText } from '../read-capped-upstream-text.js';
import { discardUpstreamBody } from '../release-upstream-body.js';
import { transportFailureOutcome } from '../transport-failure-outcome.js';
import {
  tooLargeMessage,
  transportFailure,
  unreadableAnswerMessage,
  unusableUpstreamAnswer,
} from '../upstream-answer-failures.js';
import { isEventStreamContentType, notAnEventStreamError } from '../relay-stream-errors.js';

type AttemptResult = UpstreamAttemptResult<AttemptValue>;

/** One pass-through attempt, in the shape attemptChannel runs every protocol attempt. */
export interface PassThroughAttempt {
  encode(): UpstreamHttpRequest;
  mapFailure(status: number, bodyText: string, retryAfter: string | undefined): UpstreamAttemptResult<never>;
  answer(response: Dispatcher.ResponseData): Promise<AttemptResult>;
}

/** What one try against one channel works with (attemptChannel's ChannelAttempt, without importing it). */
export interface PassThroughAttemptContext {
  request: DispatchRequest;
  channel: RoutableChannel;
  client: ClientSink;
  services: DispatchServices;
  control: ForwardingControl;
  /** collects the answer's id, model and finish reasons for the attempt's span; undefined when it is not recording */
  responseFacts?: ResponseFactsCollector | undefined;
}

const jsonContentType = 'application/json; charset=utf-8';

/** The size cap of a vendor answer when the services do not set one (`GATEWAY_UPSTREAM_MAX_BODY_BYTES`'s default). */
const defaultUpstreamMaxBodyBytes = 64 * 1024 * 1024;

/** A client protocol the channel speaks natively: the protocol encodes and rewrites, dispatch relays. */
export function planPassThroughAttempt(
  attempt: PassThroughAttemptContext,
  protocol: PassThroughProtocol,
): PassThroughAttempt {
  const { request, channel, services, control, client } = attempt;
  const upstreamModelId = channel.modelMapping.get(request.modelId) ?? request.modelId;
  return {
    encode: () => protocol.encode(channel, upstreamModelId),
    mapFailure: (status, bodyText, retryAfter) => protocol.mapFailure(status, bodyText, retryAfter, channel),
    async answer(response) {
      const contentType = headerValue(response.headers['content-type']) ?? 'application/json';
      if (request.stream && !isEventStreamContentType(contentType)) {
        // Plain JSON or a page where a stream was asked for: nothing reached the client, so another channel may answer.
        discardUpstreamBody(response.body);
        services.metrics.upstreamFailures.inc({ channel: channel.name, reason: 'not-a-stream' });
        return { kind: 'retryable-failure', error: notAnEventStreamError() };
      }
      if (request.stream) {
        const writer = new ClientStreamWriter({
          client,
          responseHeaders: request.responseHeaders,
          clock: services.clock,
          clientDrainTimeoutMs: services.config.streamWriteTimeoutMs,
          drain: control,
        });
        const relayed = await relayPassThroughStream({
          upstreamBody: response.body,
          writer,
          relay: protocol.createStreamRelay(channel),
          observeEvent: attempt.responseFacts?.readEvent.bind(attempt.responseFacts),
        });
        if (relayed.kind === 'failed-before-first-byte') {
          if (control.aborted) return clientClosedFailure();
          services.metrics.upstreamFailures.inc({ channel: channel.name, reason: 'stream' });
          return { kind: 'retryable-failure', error: relayed.error };
        }
        const { outcome } = relayed;
        return {
          kind: 'success',
          value: {
            status: 200,
            usage: outcome.usage,
            firstByteAt: outcome.firstEventAt,
            errorCode: outcome.error?.code,
            // A stream that ended without usage (a vendor failure mid-stream) is billed its text and estimated input.
            generatedText: outcome.generatedText,
            answerUsage: undefined,
          },
        };
      }
      // At most GATEWAY_UPSTREAM_MAX_BODY_BYTES of it, like every other vendor answer.
      const maximumBytes = services.config.upstreamMaxBodyBytes ?? defaultUpstreamMaxBodyBytes;
      let bodyText: string;
      try {
        const read = await readCappedUpstreamText(
          response.body,
          maximumBytes,
          headerValue(response.headers['content-length']),
        );
        if (read.kind === 'too-large') {
          services.metrics.upstreamFailures.inc({ channel: channel.name, reason: 'too-large' });
          return unusableUpstreamAnswer(tooLargeMessage(maximumBytes));
        }
        bodyText = read.text;
      } catch (error) {
        if (control.aborted) return clientClosedFailure();
        return transportFailure(error, transportFailureOutcome(error));
      }
      let rewritten: Awaited<ReturnType<PassThroughProtocol['rewriteAnswer']>>;
      try {
        rewritten = await protocol.rewriteAnswer(bodyText, channel);
      } catch (error) {
        // Anything else (the route failing to store the answer) is not the vendor's fault: it propagates.
        if (!(error instanceof UnreadableUpstreamAnswer)) throw error;
        services.metrics.upstreamFailures.inc({ channel: channel.name, reason: 'unreadable' });
        return unusableUpstreamAnswer(unreadableAnswerMessage);
      }
      // A client that left while the vendor worked gets no answer, but the answer is billed from its usage.
      let firstByteAt: number | undefined;
      if (!control.abandoned) {
        firstByteAt = services.clock();
        await client.sendAnswer(200, [request.responseHeaders, { 'content-type': jsonContentType }], rewritten.body);
      }
      attempt.responseFacts?.readJson(bodyText);
      return {
        kind: 'success',
        value: {
          status: 200,
          usage: rewritten.usage,
          firstByteAt,
          errorCode: undefined,
          generatedText: undefined,
          answerUsage: undefined,
        },
      };
    },
  };
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
