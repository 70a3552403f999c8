import { randomUUID } from 'node:crypto';
import { request, type Dispatcher } from 'undici';
import { GatewayError } from '../core/gateway-error.js';
import type { ChatAdapter, VendorCall, VendorHttpRequest } from '../providers/chat-adapter.js';
import { findChatAdapter } from '../providers/chat-adapter-registry.js';
import { mapUpstreamTransportFailure } from '../providers/openai/map-openai-upstream-failure.js';
import { createOpenAiChunkEncoder } from '../providers/translated-stream/encode-openai-chunks.js';
import { relayChatStreamParts } from '../providers/translated-stream/relay-chat-stream-parts.js';
import type { UpstreamAttemptResult } from '../providers/upstream-attempt-result.js';
import type { RoutableChannel } from '../routing/routing-table.js';
import { clientClosedFailure } from './client-closed-failure.js';
import type { AttemptValue, UpstreamForwarding } from './forward-to-upstream.js';
import type { ForwardingControl } from './forwarding-control.js';

/** One try against a channel; the fields every step needs. */
interface TranslatedAttempt {
  forwarding: UpstreamForwarding;
  channel: RoutableChannel;
  adapter: ChatAdapter;
  call: VendorCall;
  control: ForwardingControl;
}

type AttemptResult = UpstreamAttemptResult<AttemptValue>;

/** One try against a channel whose protocol is translated (Anthropic, Gemini, Bedrock). */
export async function attemptTranslatedChannel(options: {
  forwarding: UpstreamForwarding;
  channel: RoutableChannel;
  upstreamModelId: string;
  /** cancels the attempt while it may be cancelled; knows whether the request was sent and the client is still there */
  control: ForwardingControl;
}): Promise<AttemptResult> {
  const { forwarding, channel, control } = options;
  const adapter = findChatAdapter(channel.protocol);
  if (!adapter) return cannotServe(channel);
  const call: VendorCall = {
    channel,
    upstreamModelId: options.upstreamModelId,
    publicModelId: forwarding.modelId,
    maxOutputTokens: forwarding.maxOutputTokens,
    stream: forwarding.stream,
    clock: forwarding.services.clock,
    // Image fetches stop when the attempt does (client gone) as well as when a sibling fetch fails.
    fetchRemoteImage: forwarding.services.remoteImageFetcher.forRequest(control.signal),
  };
  const attempt: TranslatedAttempt = { forwarding, channel, adapter, call, control };
  if (forwarding.embeddingRequest) return adapter.embeddings ? attemptEmbeddings(attempt) : cannotServe(channel);
  if (forwarding.chatRequest) return attemptChat(attempt);
  return cannotServe(channel);
}

async function attemptChat(attempt: TranslatedAttempt): Promise<AttemptResult> {
  const { forwarding, adapter, call } = attempt;
  const chatRequest = forwarding.chatRequest;
  if (!chatRequest) return cannotServe(attempt.channel);
  const sent = await encodeAndSend(attempt, () => adapter.encodeChatRequest(chatRequest, call));
  if (sent.kind !== 'success') return sent;
  const response = sent.value;
  if (forwarding.stream) return relayStream(attempt, response);

  const bodyText = await readBody(attempt, response);
  if (typeof bodyText !== 'string') return bodyText;
  let decoded: ReturnType<ChatAdapter['decodeChatResponse']>;
  try {
    decoded = adapter.decodeChatResponse(bodyText, call);
  } catch {
    return unreadableAnswer(attempt);
  }
  const responseText = JSON.stringify(decoded.completion);
  const firstByteAt = await answerClient(attempt, responseText);
  return { kind: 'success', value: { status: 200, usage: decoded.usage, firstByteAt, errorCode: undefined, generatedText: undefined, responseText } };
}

async function attemptEmbeddings(attempt: TranslatedAttempt): Promise<AttemptResult> {
  const { forwarding, adapter, call } = attempt;
  const embeddings = adapter.embeddings;
  const embeddingRequest = forwarding.embeddingRequest;
  if (!embeddings || !embeddingRequest) return cannotServe(attempt.channel);
  const sent = await encodeAndSend(attempt, () => embeddings.encode(embeddingRequest, call));
  if (sent.kind !== 'success') return sent;
  const bodyText = await readBody(attempt, sent.value);
  if (typeof bodyText !== 'string') return bodyText;
  let decoded: ReturnType<NonNullable<ChatAdapter['embeddings']>['decode']>;
  try {
    decoded = embeddings.decode(bodyText, embeddingRequest, call);
  } catch {
    return unreadableAnswer(attempt);
  }
  const firstByteAt = await answerClient(attempt, JSON.stringify(decoded.response));
  return { kind: 'success', value: { status: 200, usage: decoded.usage, firstByteAt, errorCode: undefined, generatedText: undefined, responseText: undefined } };
}

/** Encodes (a 400 from the adapter stops here), sends, and maps a non-2xx answer through the adapter. */
async function encodeAndSend(
  attempt: TranslatedAttempt,
  encode: () => VendorHttpRequest | Promise<VendorHttpRequest>,
): Promise<UpstreamAttemptResult<Dispatcher.ResponseData>> {
  const { services } = attempt.forwarding;
  let vendorRequest: VendorHttpRequest;
  try {
    vendorRequest = await encode();
  } catch (error) {
    // Encoding may fetch images; a client that left meanwhile gets no 400 blaming its image URL.
    if (attempt.control.signal.aborted) return clientClosedFailure();
    if (error instanceof GatewayError) return { kind: error.code === 'invalid_request_error' ? 'final-failure' : 'retryable-failure', error };
    throw error;
  }
  // A client that left while images were fetched cancels everything: nothing was sent, nothing is billed.
  if (!attempt.control.markSent()) return clientClosedFailure();
  let response: Dispatcher.ResponseData;
  try {
    response = await request(vendorRequest.url, {
      method: 'POST',
      headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', ...vendorRequest.headers },
      body: vendorRequest.body,
      dispatcher: services.dispatcher,
      signal: attempt.control.signal,
      headersTimeout: services.config.upstreamHeadersTimeoutMs,
      bodyTimeout: services.config.upstreamBodyTimeoutMs,
    });
  } catch {
    if (attempt.control.signal.aborted) return clientClosedFailure();
    services.metrics.upstreamFailures.inc({ channel: attempt.channel.name, reason: 'transport' });
    return mapUpstreamTransportFailure();
  }
  if (response.statusCode >= 400) {
    const bodyText = await response.body.text().catch(() => '');
    services.metrics.upstreamFailures.inc({ channel: attempt.channel.name, reason: String(response.statusCode) });
    services.logger.warn({ channel: attempt.channel.name, upstreamStatus: response.statusCode }, 'upstream refused a request');
    return attempt.adapter.mapFailure(response.statusCode, bodyText, headerValue(response.headers['retry-after']));
  }
  return { kind: 'success', value: response };
}

async function relayStream(attempt: TranslatedAttempt, response: Dispatcher.ResponseData): Promise<AttemptResult> {
  const { forwarding, adapter, call } = attempt;
  const { reply, services } = forwarding;
  if (!reply.sent) reply.hijack();
  const relayed = await relayChatStreamParts({
    parts: adapter.decodeChatStream(response.body, call),
    upstreamBody: response.body,
    response: reply.raw,
    encoder: createOpenAiChunkEncoder({
      id: `chatcmpl-${randomUUID().replaceAll('-', '')}`,
      model: call.publicModelId,
      created: Math.floor(services.clock() / 1000),
      clientWantsUsage: forwarding.clientWantsUsage,
    }),
    responseHeaders: { ...forwarding.responseHeaders, 'x-request-id': String(reply.request.id) },
    clock: services.clock,
    clientDrainTimeoutMs: services.config.streamWriteTimeoutMs,
  });
  if (relayed.kind === 'failed-before-first-byte') {
    if (attempt.control.signal.aborted) return clientClosedFailure();
    services.metrics.upstreamFailures.inc({ channel: attempt.channel.name, reason: 'stream' });
    return { kind: 'retryable-failure', error: relayed.error };
  }
  const { outcome } = relayed;
  const value = { status: 200, usage: outcome.usage, firstByteAt: outcome.firstEventAt, errorCode: outcome.error?.code, generatedText: outcome.generatedText, responseText: undefined };
  return { kind: 'success', value };
}

async function readBody(attempt: TranslatedAttempt, response: Dispatcher.ResponseData): Promise<string | AttemptResult> {
  try {
    return await response.body.text();
  } catch {
    if (attempt.control.signal.aborted) return clientClosedFailure();
    return mapUpstreamTransportFailure();
  }
}

/** Sends a non-streamed answer; returns when its first byte left (Unix ms), or undefined when the client already left. */
async function answerClient(attempt: TranslatedAttempt, responseText: string): Promise<number | undefined> {
  const { reply, responseHeaders, services } = attempt.forwarding;
  // A client that left while the vendor worked gets no answer, but the answer is billed from its usage.
  if (attempt.control.abandoned) return undefined;
  const firstByteAt = services.clock();
  await reply.code(200).headers(responseHeaders).header('content-type', 'application/json; charset=utf-8').send(responseText);
  return firstByteAt;
}

function unreadableAnswer(attempt: TranslatedAttempt): AttemptResult {
  attempt.forwarding.services.metrics.upstreamFailures.inc({ channel: attempt.channel.name, reason: 'unreadable' });
  return { kind: 'retryable-failure', error: new GatewayError('server_error', 'The upstream vendor sent an answer the gateway could not read.') };
}

function cannotServe(channel: RoutableChannel): UpstreamAttemptResult<never> {
  return { kind: 'retryable-failure', error: new GatewayError('service_unavailable', `The channel protocol '${channel.protocol}' cannot serve this endpoint.`) };
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
