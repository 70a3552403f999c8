import type { FastifyReply } from 'fastify';
import type { Dispatcher, FormData } from 'undici';
import { GatewayError } from '../core/gateway-error.js';
import type { TokenUsage } from '../core/token-usage.js';
import { mapOpenAiUpstreamFailure, mapUpstreamTransportFailure } from '../providers/openai/map-openai-upstream-failure.js';
import { extractUsageFromJsonText } from '../providers/openai/parse-openai-usage.js';
import { relayOpenAiEventStream, StreamFailedBeforeFirstEvent } from '../providers/openai/relay-openai-event-stream.js';
import type { ChatCompletionRequest } from '../core/openai-chat-request.js';
import type { EmbeddingRequestFields } from '../providers/chat-adapter.js';
import { createOpenAiWireTarget, openAiWireProtocols } from '../providers/openai/openai-wire-target.js';
import { sendOpenAiRequest } from '../providers/openai/send-openai-request.js';
import { attemptTranslatedChannel } from './attempt-translated-channel.js';
import { clientClosedFailure } from './client-closed-failure.js';
import { ForwardingControl } from './forwarding-control.js';
import type { UpstreamAttemptResult } from '../providers/upstream-attempt-result.js';
import { orderChannelsForAttempt } from '../routing/order-channels-for-attempt.js';
import type { RoutableChannel } from '../routing/routing-table.js';
import { tryChannelsInOrder } from '../routing/try-channels-in-order.js';
import type { GatewayServices } from './gateway-services.js';

/** One client request to pass to whichever channel serves its model. */
export interface UpstreamForwarding {
  reply: FastifyReply;
  services: GatewayServices;
  /** the public model id the client asked for */
  modelId: string;
  /** path below the channel's base URL, e.g. `/chat/completions` */
  upstreamPath: string;
  /** builds the upstream body for the model name a channel expects (and the fields that channel accepts) */
  buildBody: (upstreamModelId: string, channel: RoutableChannel) => string | FormData;
  /** the channels that accept every field of the request (forwarded-field policy); all of the model's when absent */
  acceptsChannel?: (channel: RoutableChannel) => boolean;
  /** true when the answer is an SSE stream */
  stream: boolean;
  /** for streams: whether the client asked for the usage chunk */
  clientWantsUsage: boolean;
  /** headers to add to a successful response, e.g. rate-limit state */
  responseHeaders: Record<string, string>;
  /** the validated chat request, so translated protocols (Anthropic, Gemini, Bedrock) can serve it */
  chatRequest?: ChatCompletionRequest;
  /** the validated embeddings request, for translated protocols that serve embeddings */
  embeddingRequest?: EmbeddingRequestFields;
  /** the model's output cap from the catalog */
  maxOutputTokens?: number;
}

/** What happened, for logs and billing. */
export interface ForwardingOutcome {
  channelId: string | undefined;
  status: number;
  usage: TokenUsage | undefined;
  /** Unix milliseconds of the first byte sent to the client */
  firstByteAt: number | undefined;
  /** the error code the client received, if any */
  errorCode: string | undefined;
  /** true when the client went away before the answer was complete (or shutdown cut the request) */
  clientAborted: boolean;
  /** true once the request was sent to a vendor: from then on it is billed for what the vendor did */
  sentUpstream: boolean;
  /** generated text of a stream that ended without usage */
  generatedText: string | undefined;
  /** the upstream body of a non-streamed answer */
  responseText: string | undefined;
}

/** What one successful attempt produced. */
export type AttemptValue = Pick<ForwardingOutcome, 'status' | 'usage' | 'firstByteAt' | 'errorCode' | 'generatedText' | 'responseText'>;

const noAnswer = { usage: undefined, firstByteAt: undefined, generatedText: undefined, responseText: undefined } as const;

/**
 * Sends the request to the model's channels in priority order, failing over while nothing has reached the client and
 * the client is still there. A client that leaves after a non-streamed request was sent does not abort it: the answer
 * is read (within the upstream timeouts) so it can be billed for what the vendor did; see ForwardingControl.
 */
export async function forwardToUpstream(forwarding: UpstreamForwarding): Promise<ForwardingOutcome> {
  const { reply, services } = forwarding;
  const control = new ForwardingControl({ response: reply.raw, stream: forwarding.stream, stopSignal: services.inFlight?.stopSignal });
  const servingChannels = services.routing.current.channelsFor(forwarding.modelId);
  const channels = orderChannelsForAttempt(forwarding.acceptsChannel ? servingChannels.filter(forwarding.acceptsChannel) : servingChannels);
  let channelId: string | undefined;
  try {
    const success = await tryChannelsInOrder(channels, async (channel) => {
      channelId = channel.id;
      const result = await attemptChannel(forwarding, channel, control);
      // A client that left must not make the gateway try (and pay for) further channels.
      if (result.kind === 'retryable-failure' && control.abandoned) return { kind: 'final-failure', error: result.error };
      return result;
    });
    if (control.abandoned) return { channelId, ...success.value, ...clientClosedStatus, clientAborted: true, sentUpstream: control.sentUpstream };
    return { channelId, ...success.value, clientAborted: false, sentUpstream: control.sentUpstream };
  } catch (error) {
    if (control.abandoned) {
      return { channelId, ...clientClosedStatus, clientAborted: true, sentUpstream: control.sentUpstream, ...noAnswer };
    }
    if (!reply.sent) throw error;
    // The reply was hijacked for a stream that then failed over and ran out of channels: answer by hand.
    if (!(error instanceof GatewayError)) services.logger.error({ err: error }, 'stream forwarding failed');
    const gatewayError = error instanceof GatewayError ? error : new GatewayError('server_error', 'The gateway failed to relay the stream.');
    writeErrorOnRawResponse(reply, gatewayError);
    return { channelId, status: gatewayError.status, errorCode: gatewayError.code, clientAborted: false, sentUpstream: control.sentUpstream, ...noAnswer };
  } finally {
    control.dispose();
  }
}

/** What the usage log records for a request whose client left first (nginx's 499). */
const clientClosedStatus = { status: 499, errorCode: 'client_closed_request' } as const;

async function attemptChannel(forwarding: UpstreamForwarding, channel: RoutableChannel, control: ForwardingControl): Promise<UpstreamAttemptResult<AttemptValue>> {
  const { services, reply } = forwarding;
  const upstreamModelId = channel.modelMapping.get(forwarding.modelId) ?? forwarding.modelId;
  if (!openAiWireProtocols.has(channel.protocol)) {
    return attemptTranslatedChannel({ forwarding, channel, upstreamModelId, control });
  }
  const body = forwarding.buildBody(upstreamModelId, channel);
  if (!control.markSent()) return clientClosedFailure();
  let response: Dispatcher.ResponseData;
  try {
    response = await sendOpenAiRequest({
      target: createOpenAiWireTarget(channel.protocol, channel, upstreamModelId),
      path: forwarding.upstreamPath,
      body,
      dispatcher: services.dispatcher,
      signal: control.signal,
      headersTimeoutMs: services.config.upstreamHeadersTimeoutMs,
      bodyTimeoutMs: services.config.upstreamBodyTimeoutMs,
    });
  } catch {
    if (control.signal.aborted) return clientClosedFailure();
    services.metrics.upstreamFailures.inc({ channel: channel.name, reason: 'transport' });
    return mapUpstreamTransportFailure();
  }

  if (response.statusCode >= 400) {
    const bodyText = await response.body.text().catch(() => '');
    services.metrics.upstreamFailures.inc({ channel: channel.name, reason: String(response.statusCode) });
    services.logger.warn({ channel: channel.name, upstreamStatus: response.statusCode }, 'upstream refused a request');
    return mapOpenAiUpstreamFailure(response.statusCode, bodyText, headerValue(response.headers['retry-after']), secretsOf(channel));
  }

  const contentType = headerValue(response.headers['content-type']) ?? 'application/json';
  if (forwarding.stream && contentType.startsWith('text/event-stream')) {
    if (!reply.sent) reply.hijack();
    try {
      const relayed = await relayOpenAiEventStream({
        upstreamBody: response.body,
        response: reply.raw,
        clientWantsUsage: forwarding.clientWantsUsage,
        responseHeaders: { ...forwarding.responseHeaders, 'x-request-id': String(reply.request.id) },
        clock: services.clock,
        knownSecrets: secretsOf(channel),
        clientDrainTimeoutMs: services.config.streamWriteTimeoutMs,
      });
      const value = { status: 200, usage: relayed.usage, firstByteAt: relayed.firstEventAt, errorCode: relayed.error?.code, generatedText: relayed.generatedText, responseText: undefined };
      return { kind: 'success', value };
    } catch (error) {
      if (error instanceof StreamFailedBeforeFirstEvent && !control.signal.aborted) {
        services.metrics.upstreamFailures.inc({ channel: channel.name, reason: 'stream' });
        return mapUpstreamTransportFailure();
      }
      throw error;
    }
  }

  let bodyText: string;
  try {
    bodyText = await response.body.text();
  } catch {
    if (control.signal.aborted) return clientClosedFailure();
    return mapUpstreamTransportFailure();
  }
  let firstByteAt: number | undefined;
  // A client that left while the vendor worked gets no answer, but the answer is billed from its usage.
  if (!control.abandoned) {
    firstByteAt = services.clock();
    await reply.code(response.statusCode).headers(forwarding.responseHeaders).header('content-type', contentType).send(bodyText);
  }
  // Read once the answer is on its way: the client never waits for the gateway's bookkeeping.
  const usage = contentType.includes('json') ? extractUsageFromJsonText(bodyText) : undefined;
  return { kind: 'success', value: { status: response.statusCode, usage, firstByteAt, errorCode: undefined, generatedText: undefined, responseText: bodyText } };
}

/** What a vendor might quote back that a client must never see: the channel's secret, host and base URL. */
export function secretsOf(channel: RoutableChannel): string[] {
  return [channel.secret, channel.baseUrl, URL.canParse(channel.baseUrl) ? new URL(channel.baseUrl).host : ''];
}

function writeErrorOnRawResponse(reply: FastifyReply, error: GatewayError): void {
  const raw = reply.raw;
  if (raw.headersSent || raw.destroyed) return;
  raw.writeHead(error.status, { 'content-type': 'application/json; charset=utf-8', ...error.headers });
  raw.end(JSON.stringify(error.toBody()));
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
