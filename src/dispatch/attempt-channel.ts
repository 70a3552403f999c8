import { randomUUID } from 'node:crypto';
import type { Dispatcher } from 'undici';
import { assertNever } from '../core/assert-never.js';
import { GatewayError } from '../core/gateway-error.js';
import { foldStreamParts } from '../core/canonical/fold-stream-parts.js';
import type { CanonicalRequest } from '../core/canonical/canonical-request.js';
import type { ClientAnswerCodec } from '../core/canonical/client-answer-codec.js';
import { createChatAnswerCodec } from '../protocols/openai-chat/chat-answer-codec.js';
import { chatRequestToCanonical } from '../protocols/openai-chat/chat-request-to-canonical.js';
import type { VendorAdapter, VendorCall } from '../providers/vendor-adapter.js';
import { findVendorAdapter } from '../providers/vendor-adapter-registry.js';
import { createOpenAiChatVendorAdapter } from '../providers/openai/openai-chat-vendor-adapter.js';
import {
  mapOpenAiUpstreamFailure,
  mapUpstreamTransportFailure,
} from '../providers/openai/map-openai-upstream-failure.js';
import { findOpenAiWireQuirks } from '../providers/openai/openai-wire-target.js';
import type { OpenAiWireQuirks } from '../providers/openai/openai-wire-quirks.js';
import { extractUsageFromJsonText } from '../providers/openai/parse-openai-usage.js';
import { noExtraAnswerUsage } from '../core/answer-usage.js';
import type { UpstreamAttemptResult } from '../providers/upstream-attempt-result.js';
import { mapStatusToChannelOutcome } from '../routing/channel-health/map-status-to-channel-outcome.js';
import type { RoutableChannel } from '../routing/routing-table.js';
import { withChannelOutcome, type ChannelAttemptResult } from './channel-attempt-result.js';
import { clientClosedFailure } from './client-closed-failure.js';
import type { ClientSink } from './client-sink.js';
import { ClientStreamWriter } from './client-stream-writer.js';
import type { DispatchServices } from './dispatch-services.js';
import type { AttemptValue, DispatchRequest, OpenAiWireDispatchRequest } from './dispatch-request.js';
import type { SpeechRequestFields } from '../core/speech-request.js';
import type { TokenUsage } from '../core/token-usage.js';
import type { ForwardingControl } from './forwarding-control.js';
import { planPassThroughAttempt } from './pass-through/plan-pass-through-attempt.js';
import { relayCanonicalStream } from './relay-canonical-stream.js';
import { fitRequestToRoutedModel, gatewayChosenOutputCap, routedModelLimits } from './fit-request-to-routed-model.js';
import { keepFirstToolCall, keepFirstToolCallOfStream } from '../core/canonical/keep-first-tool-call.js';
import { nameParamsForClient } from './name-params-for-client.js';
import { relayOpenAiEventStream, StreamFailedBeforeFirstEvent } from './relay-openai-event-stream.js';
import { isEventStreamContentType, isStreamContentType, notAnEventStreamError } from './relay-stream-errors.js';
import { redactChannelSecrets } from './redact-channel-secrets.js';
import type { ResponseFactsCollector } from './response-facts-collector.js';
import { discardUpstreamBody } from './release-upstream-body.js';
import { secretsOf } from './redact-channel-secrets.js';
import { sendUpstreamRequest, type UpstreamHttpRequest } from './send-upstream-request.js';
import { tokenUsageOfCanonical } from '../core/token-usage-of-canonical.js';
import { transportFailureOutcome } from './transport-failure-outcome.js';
import { UpstreamAnswerDeadline } from './upstream-answer-deadline.js';
import {
  findOpenAiWireAnswerFault,
  findOpenAiWireAnswerHeadFault,
  findOpenAiWireAnswerTailFault,
} from './find-openai-wire-answer-fault.js';
import { streamThroughJsonAnswer } from './stream-through-json-answer.js';
import { streamThroughAudioAnswer } from './stream-through-audio-answer.js';
import { readCappedUpstreamText } from './read-capped-upstream-text.js';
import { readOpenAiWireAnswerUsage } from './read-openai-wire-answer-usage.js';
import { generatedTextOfAnswer } from './generated-text-of-answer.js';
import { redactGatewayError } from './redact-channel-secrets.js';
import {
  failurePageMessage,
  redirectMessage,
  tooLargeMessage,
  transportFailure,
  unreadableAnswerMessage,
  unusableUpstreamAnswer,
} from './upstream-answer-failures.js';

type AttemptResult = ChannelAttemptResult<AttemptValue>;

/** Everything one try against one channel works with. */
export interface ChannelAttempt {
  request: DispatchRequest;
  channel: RoutableChannel;
  client: ClientSink;
  services: DispatchServices;
  /** cancels the attempt while it may be cancelled; knows whether the request was sent and the client is still there */
  control: ForwardingControl;
  /** trace headers (`traceparent`) for the vendor, when tracing is on and the operator lets vendors see them */
  vendorHeaders?: Record<string, string> | undefined;
  /** collects the answer's id, model and finish reasons for the attempt's span; undefined when it is not recording */
  responseFacts?: ResponseFactsCollector | undefined;
}

/** What differs between channel protocols in one attempt: the request, the failure mapping and the answer. */
interface ProtocolAttempt {
  /** may throw a 400 GatewayError naming a parameter the vendor cannot honour */
  encode(): UpstreamHttpRequest | Promise<UpstreamHttpRequest>;
  mapFailure(status: number, bodyText: string, retryAfter: string | undefined): UpstreamAttemptResult<never>;
  answer(response: Dispatcher.ResponseData): Promise<AttemptResult>;
}

/**
 * One try against one channel, the same path for every channel protocol: encode (a 400 stops here), send, map a
 * non-2xx answer, then answer the client: a relayed stream or a JSON answer. OpenAI-wire channels pass bodies
 * through (their vendor quirks are hooks); translated channels go through their adapter.
 */
export async function attemptChannel(attempt: ChannelAttempt): Promise<AttemptResult> {
  const protocolAttempt = planProtocolAttempt(attempt);
  if (!protocolAttempt) return cannotServe(attempt.channel);
  const { services, control, channel } = attempt;
  let upstreamRequest: UpstreamHttpRequest;
  try {
    upstreamRequest = await protocolAttempt.encode();
  } catch (error) {
    // Encoding may fetch images; a client that left meanwhile gets no 400 blaming its image URL.
    if (control.aborted) return clientClosedFailure();
    if (error instanceof GatewayError)
      return { kind: error.code === 'invalid_request_error' ? 'final-failure' : 'retryable-failure', error };
    throw error;
  }
  // A client that left while images were fetched cancels everything: nothing was sent, nothing is billed.
  if (!control.markSent()) return clientClosedFailure();
  const deadline = startAnswerDeadline(attempt);
  if (attempt.vendorHeaders)
    upstreamRequest = { ...upstreamRequest, headers: { ...upstreamRequest.headers, ...attempt.vendorHeaders } };
  try {
    return await sendAndAnswer(attempt, protocolAttempt, upstreamRequest, deadline);
  } finally {
    deadline?.clear();
  }
}

/** The deadline of a non-streamed answer (`GATEWAY_UPSTREAM_ANSWER_TIMEOUT_MS`); none for a stream or when it is 0. */
function startAnswerDeadline(attempt: ChannelAttempt): UpstreamAnswerDeadline | undefined {
  const timeoutMs = attempt.services.config.upstreamAnswerTimeoutMs ?? defaultUpstreamAnswerTimeoutMs;
  if (attempt.request.stream || timeoutMs <= 0) return undefined;
  const { services, channel } = attempt;
  return new UpstreamAnswerDeadline(timeoutMs, () =>
    services.logger.warn(
      { channel: channel.name, answerTimeoutMs: timeoutMs },
      'upstream answer took longer than GATEWAY_UPSTREAM_ANSWER_TIMEOUT_MS; its connection was closed',
    ),
  );
}

/** Sends the request, then maps a redirect or a refusal, or answers the client; within the deadline when there is one. */
async function sendAndAnswer(
  attempt: ChannelAttempt,
  protocolAttempt: ProtocolAttempt,
  upstreamRequest: UpstreamHttpRequest,
  deadline: UpstreamAnswerDeadline | undefined,
): Promise<AttemptResult> {
  const { services, control, channel } = attempt;
  let response: Dispatcher.ResponseData;
  try {
    response = await sendUpstreamRequest(upstreamRequest, {
      dispatcher: services.dispatcher,
      signal: control.upstreamSignal,
      headersTimeoutMs: deadline
        ? deadline.headersTimeoutMs(services.config.upstreamHeadersTimeoutMs)
        : services.config.upstreamHeadersTimeoutMs,
      bodyTimeoutMs: services.config.upstreamBodyTimeoutMs,
    });
  } catch (error) {
    if (control.aborted) return clientClosedFailure();
    services.metrics.upstreamFailures.inc({ channel: channel.name, reason: 'transport' });
    return transportFailure(error, transportFailureOutcome(error));
  }
  deadline?.watch(response.body);
  const status = response.statusCode;
  // A refusal is no work the vendor bills: a client that left meanwhile is charged its estimated input, not its hold.
  if (status >= 300) control.markRefused();
  if (status >= 300 && status < 400) {
    // Never followed (the key must not go to another origin) nor relayed: a vendor fault, and another channel may answer.
    discardUpstreamBody(response.body);
    services.metrics.upstreamFailures.inc({ channel: channel.name, reason: String(status) });
    services.logger.warn({ channel: channel.name, upstreamStatus: status }, 'upstream answered a redirect');
    return unusableUpstreamAnswer(redirectMessage(status), status);
  }
  if (status >= 400) {
    const bodyText = await readFailureText(response);
    services.metrics.upstreamFailures.inc({ channel: channel.name, reason: String(status) });
    services.logger.warn({ channel: channel.name, upstreamStatus: status }, 'upstream refused a request');
    if (status === 402) return outOfCredit();
    const retryAfter = headerValue(response.headers['retry-after']);
    const channelOutcome = mapStatusToChannelOutcome(status, retryAfter);
    const mapped = protocolAttempt.mapFailure(status, bodyText, retryAfter);
    // A vendor's own 500 error (JSON) stays a 500; a 500 page (a proxy's HTML, an empty body) is a bad gateway.
    if (
      mapped.kind !== 'success' &&
      mapped.error.code === 'server_error' &&
      status >= 500 &&
      !isJsonObjectText(bodyText)
    ) {
      return withChannelOutcome(unusableUpstreamAnswer(failurePageMessage(status)), channelOutcome);
    }
    return redactFailure(withChannelOutcome(mapped, channelOutcome), channel);
  }
  return redactFailure(await protocolAttempt.answer(response), channel);
}

/** True when a vendor's error body is a JSON object (its own error), not a page or nothing. */
function isJsonObjectText(bodyText: string): boolean {
  return bodyText.trimStart().startsWith('{');
}

/** The most of a vendor's error body read for its message: the rest of a larger one is dropped with its connection. */
const failureTextMaximumBytes = 64 * 1024;

/** A vendor's error body as text ('' when it is huge or its connection broke: the client then gets a generic message). */
async function readFailureText(response: Dispatcher.ResponseData): Promise<string> {
  try {
    const read = await readCappedUpstreamText(
      response.body,
      failureTextMaximumBytes,
      headerValue(response.headers['content-length']),
    );
    return read.kind === 'text' ? read.text : '';
  } catch {
    return '';
  }
}

/**
 * A vendor's 402 (Payment Required): the channel's account is out of credit, never the client's fault. Another
 * channel may answer; the breaker counts it like a rejected credential, since the channel stays unusable until topped up.
 */
function outOfCredit(): AttemptResult {
  const error = new GatewayError('service_unavailable', 'The upstream channel has run out of credit; retry later.');
  return withChannelOutcome({ kind: 'retryable-failure', error }, { kind: 'credential-rejected', status: 402 });
}

/** Every failure a client may see from this channel, with the channel's own secrets (key(s), URL, host) removed: one place for every protocol. */
function redactFailure(result: AttemptResult, channel: RoutableChannel): AttemptResult {
  return result.kind === 'success' ? result : { ...result, error: redactGatewayError(result.error, channel) };
}

/** What a vendor might quote back that a client must never see (kept here for the pass-through relays that import it). */
export { secretsOf };

/**
 * Chooses how a channel serves the request, by the request's kind:
 * - `canonical` (Responses, Messages): a channel that speaks the client's protocol natively gets the pass-through
 *   relay (`passThrough`, e.g. Responses to an OpenAI channel with the Responses API); EVERY other channel protocol
 *   serves it through its vendor adapter (OpenAI-wire channels through the OpenAI chat adapter), and the client
 *   protocol's codec writes the answer;
 * - `openai-wire`: to an OpenAI-wire channel the body and the stream pass through (the fast path); to a translated
 *   channel its `translation` (chat: to canonical, answered through the chat codec; embeddings: the adapter's own).
 */
function planProtocolAttempt(attempt: ChannelAttempt): ProtocolAttempt | undefined {
  const { request, channel } = attempt;
  const quirks = findOpenAiWireQuirks(channel.protocol);
  switch (request.kind) {
    case 'canonical': {
      if (request.passThrough?.servesChannel(channel)) return planPassThroughAttempt(attempt, request.passThrough);
      const adapter = quirks
        ? createOpenAiChatVendorAdapter(quirks, secretsOf(channel))
        : findVendorAdapter(channel.protocol);
      return adapter ? planTranslatedAttempt(attempt, adapter) : undefined;
    }
    case 'openai-wire': {
      if (quirks) return planOpenAiWireAttempt(attempt, quirks, request);
      const adapter = request.translation ? findVendorAdapter(channel.protocol) : undefined;
      return adapter ? planTranslatedAttempt(attempt, adapter) : undefined;
    }
    default:
      return assertNever(request, 'dispatch request kind');
  }
}

function upstreamModelIdOf(attempt: ChannelAttempt): string {
  return attempt.channel.modelMapping.get(attempt.request.modelId) ?? attempt.request.modelId;
}

/** OpenAI-wire channels: the body passes through; a stream is relayed event by event (the fast path). */
function planOpenAiWireAttempt(
  attempt: ChannelAttempt,
  quirks: OpenAiWireQuirks,
  openAiWire: OpenAiWireDispatchRequest,
): ProtocolAttempt {
  const { request, channel, services, control } = attempt;
  const upstreamModelId = upstreamModelIdOf(attempt);
  return {
    encode: () => ({
      url: quirks.urlFor(channel, upstreamModelId, openAiWire.upstreamPath),
      headers: quirks.authHeaders(channel),
      body: openAiWire.buildBody(upstreamModelId, channel),
    }),
    mapFailure: (status, bodyText, retryAfter) =>
      mapOpenAiUpstreamFailure(status, bodyText, retryAfter, secretsOf(channel)),
    async answer(response) {
      const contentType = headerValue(response.headers['content-type']) ?? 'application/json';
      // Speech audio is bytes, relayed as they come (text decoding would corrupt them).
      if (openAiWire.upstreamPath === speechPath && !request.stream)
        return relaySpeechAudio(attempt, contentType, response);
      // A streamed request answered with plain JSON or a page: nothing reached the client, another channel may answer.
      if (request.stream && !isEventStreamContentType(contentType)) return notAnEventStream(attempt, response);
      if (request.stream) {
        try {
          const relayed = await relayOpenAiEventStream({
            upstreamBody: response.body,
            writer: createStreamWriter(attempt),
            clientWantsUsage: request.clientWantsUsage,
            knownSecrets: secretsOf(channel),
            redact: (text) => redactChannelSecrets(text, channel),
            observeEvent: attempt.responseFacts?.readEvent.bind(attempt.responseFacts),
            // Speech events end with `speech.audio.done` (its usage), not `[DONE]`.
            terminalEventType: openAiWire.upstreamPath === speechPath ? 'speech.audio.done' : undefined,
          });
          const value = {
            status: 200,
            usage: relayed.usage,
            firstByteAt: relayed.firstEventAt,
            errorCode: relayed.error?.code,
            generatedText: relayed.generatedText,
            answerUsage: undefined,
          };
          return { kind: 'success', value };
        } catch (error) {
          if (error instanceof StreamFailedBeforeFirstEvent && !control.aborted) {
            services.metrics.upstreamFailures.inc({ channel: channel.name, reason: 'stream' });
            // A vendor error event or an unreadable first event: the vendor's failure; a broken connection otherwise.
            if (error.error)
              return withChannelOutcome(
                { kind: 'retryable-failure', error: error.error },
                mapStatusToChannelOutcome(unusableAnswerStatus, undefined),
              );
            return withChannelOutcome(mapUpstreamTransportFailure(), { kind: 'connection-error' });
          }
          throw error;
        }
      }
      let bodyText: string | AttemptResult;
      if (streamsThrough(attempt, openAiWire.upstreamPath, response)) {
        const relayed = await streamThrough(attempt, openAiWire.upstreamPath, contentType, response);
        if (relayed.kind !== 'whole') return relayed.result;
        bodyText = relayed.text;
      } else {
        bodyText = await readBody(attempt, response);
      }
      if (typeof bodyText !== 'string') return bodyText;
      // Checked before any byte leaves: a page, cut-off JSON or an answer without its array is no answer, and is not billed.
      const fault = findOpenAiWireAnswerFault(openAiWire.upstreamPath, contentType, bodyText);
      if (fault) return unreadableAnswer(attempt, fault);
      const firstByteAt = await answerClient(attempt, response.statusCode, contentType, bodyText);
      // Read once the answer is on its way: the client never waits for the gateway's bookkeeping.
      if (contentType.includes('json')) attempt.responseFacts?.readJson(bodyText);
      const usage = contentType.includes('json') ? extractUsageFromJsonText(bodyText) : undefined;
      return {
        kind: 'success',
        value: {
          status: response.statusCode,
          usage,
          firstByteAt,
          errorCode: undefined,
          generatedText: undefined,
          answerUsage: readOpenAiWireAnswerUsage(openAiWire.upstreamPath, bodyText, usage),
        },
      };
    },
  };
}

/**
 * Translated attempts (Anthropic, Gemini, Bedrock for every client; any channel for a canonical request): the adapter
 * encodes the canonical request and decodes the answer into parts; the client protocol's codec writes them.
 */
function planTranslatedAttempt(attempt: ChannelAttempt, adapter: VendorAdapter): ProtocolAttempt | undefined {
  const { request, channel, services, control } = attempt;
  const limits = routedModelLimits(request, channel);
  const call: VendorCall = {
    channel,
    upstreamModelId: upstreamModelIdOf(attempt),
    publicModelId: request.modelId,
    maxOutputTokens: gatewayChosenOutputCap(request, limits),
    stream: request.stream,
    clock: services.clock,
    // Image fetches stop when the attempt does (client gone) as well as when a sibling fetch fails.
    fetchRemoteImage: services.remoteImageFetcher.forRequest(control.signal),
  };
  const mapFailure = adapter.mapFailure.bind(adapter);
  const translation = request.kind === 'openai-wire' ? request.translation : undefined;
  if (translation?.kind === 'embedding') {
    const embeddingRequest = translation.request;
    const embeddings = adapter.embeddings;
    if (!embeddings) return undefined;
    return {
      encode: () => embeddings.encode(embeddingRequest, call),
      mapFailure,
      async answer(response) {
        const bodyText = await readBody(attempt, response);
        if (typeof bodyText !== 'string') return bodyText;
        let decoded: ReturnType<typeof embeddings.decode>;
        try {
          decoded = embeddings.decode(bodyText, embeddingRequest, call);
        } catch {
          return unreadableAnswer(attempt, 'undecodable');
        }
        const firstByteAt = await answerClient(attempt, 200, jsonContentType, JSON.stringify(decoded.response));
        return {
          kind: 'success',
          value: {
            status: 200,
            usage: decoded.usage,
            firstByteAt,
            errorCode: undefined,
            generatedText: undefined,
            // An embeddings answer without usage is billed its estimated input (there is no generated text).
            answerUsage: decoded.usage ? noExtraAnswerUsage : { text: '' },
          },
        };
      },
    };
  }
  if (translation?.kind === 'speech') return planTranslatedSpeech(attempt, adapter, call, translation.request);
  const canonical = canonicalOf(attempt);
  if (!canonical) return undefined;
  // At most one tool call reaches a client that asked for one, whether or not the vendor has the switch.
  let singleToolCall = false;
  return {
    // The chat request is translated here, so a field the canonical request cannot carry is a 400 like a vendor's;
    // adapters name refused parameters in chat terms, which the client protocol's codec renames.
    encode: async () => {
      try {
        const fitted = fitRequestToRoutedModel(canonical.request(), limits);
        singleToolCall = fitted.parallelToolCalls === false;
        return await adapter.encodeRequest(fitted, call);
      } catch (error) {
        throw nameParamsForClient(error, canonical.codec);
      }
    },
    mapFailure,
    async answer(response) {
      if (request.stream)
        return relayTranslatedStream(attempt, adapter, call, canonical.codec, response, singleToolCall);
      const bodyText = await readBody(attempt, response);
      if (typeof bodyText !== 'string') return bodyText;
      let answer: ReturnType<typeof foldStreamParts>;
      try {
        const parts = adapter.decodeResponse(bodyText, call);
        if (attempt.responseFacts) for (const part of parts) attempt.responseFacts.readPart(part);
        answer = foldStreamParts(singleToolCall ? keepFirstToolCall(parts) : parts);
      } catch {
        return unreadableAnswer(attempt, 'undecodable');
      }
      const answerText = canonical.codec.encodeAnswer(answer);
      await canonical.codec.beforeLastBytes?.();
      const firstByteAt = await answerClient(attempt, 200, jsonContentType, answerText);
      const usage = answer.usage ? tokenUsageOfCanonical(answer.usage) : undefined;
      const answerUsage = usage ? noExtraAnswerUsage : { text: generatedTextOfAnswer(answer) };
      return {
        kind: 'success',
        value: { status: 200, usage, firstByteAt, errorCode: undefined, generatedText: undefined, answerUsage },
      };
    },
  };
}

/**
 * Text to speech through a translated channel (Gemini TTS): the vendor's whole answer is read, its audio decoded into
 * the asked format, then sent as audio bytes, or as `speech.audio.delta` events and a `speech.audio.done` event with
 * the vendor's usage when the client asked for `stream_format: "sse"`.
 */
function planTranslatedSpeech(
  attempt: ChannelAttempt,
  adapter: VendorAdapter,
  call: VendorCall,
  speechRequest: SpeechRequestFields,
): ProtocolAttempt | undefined {
  const speech = adapter.speech;
  if (!speech) return undefined;
  return {
    encode: () => speech.encode(speechRequest, call),
    mapFailure: adapter.mapFailure.bind(adapter),
    async answer(response) {
      const bodyText = await readBody(attempt, response);
      if (typeof bodyText !== 'string') return bodyText;
      let decoded: ReturnType<typeof speech.decode>;
      try {
        decoded = speech.decode(bodyText, speechRequest, call);
      } catch {
        return unreadableAnswer(attempt, 'undecodable');
      }
      const firstByteAt = attempt.control.abandoned
        ? undefined
        : speechRequest.sse
          ? writeSpeechEvents(attempt, decoded.audio, decoded.usage)
          : writeAudio(attempt, decoded.contentType, decoded.audio);
      return {
        kind: 'success',
        value: {
          status: 200,
          usage: decoded.usage,
          firstByteAt,
          errorCode: undefined,
          generatedText: undefined,
          answerUsage: noExtraAnswerUsage,
        },
      };
    },
  };
}

/** Bytes of audio per `speech.audio.delta` event of a translated answer (a multiple of 3: whole base64 groups). */
const speechDeltaBytes = 48 * 1024;

/** Writes decoded audio as OpenAI's speech events: deltas of base64 audio, then the done event with the usage. */
function writeSpeechEvents(attempt: ChannelAttempt, audio: Uint8Array, usage: TokenUsage | undefined): number {
  const writer = createStreamWriter(attempt);
  const events: string[] = [];
  for (let offset = 0; offset < audio.length; offset += speechDeltaBytes) {
    const chunk = Buffer.from(
      audio.buffer,
      audio.byteOffset + offset,
      Math.min(speechDeltaBytes, audio.length - offset),
    );
    events.push(JSON.stringify({ type: 'speech.audio.delta', audio: chunk.toString('base64') }));
  }
  const inputTokens = usage?.promptTokens ?? 0;
  const outputTokens = usage?.completionTokens ?? 0;
  const doneUsage = {
    input_tokens: inputTokens,
    output_tokens: outputTokens,
    total_tokens: inputTokens + outputTokens,
  };
  events.push(JSON.stringify({ type: 'speech.audio.done', usage: doneUsage }));
  writer.writeEvents(events);
  writer.endWithFrames([]);
  return writer.firstEventAt ?? attempt.services.clock();
}

/** Writes decoded audio as one binary answer under its Content-Type. */
function writeAudio(attempt: ChannelAttempt, contentType: string, audio: Uint8Array): number {
  const { client, request, services } = attempt;
  const firstByteAt = services.clock();
  client.startStream();
  client.writeHead(200, [
    request.responseHeaders,
    { 'content-type': contentType, 'content-length': String(audio.length) },
  ]);
  client.write(audio);
  client.end();
  return firstByteAt;
}

/**
 * The request in canonical terms and the codec that writes the answer in the client's protocol: the route's own for
 * Responses and Messages, the chat request translated (lazily: translation may refuse a field) with the chat codec.
 */
function canonicalOf(
  attempt: ChannelAttempt,
): { request: () => CanonicalRequest; codec: ClientAnswerCodec } | undefined {
  const { request, services } = attempt;
  switch (request.kind) {
    case 'canonical': {
      const canonicalRequest = request.canonical.request;
      return { request: () => canonicalRequest, codec: request.canonical.codec };
    }
    case 'openai-wire': {
      if (request.translation?.kind !== 'chat') return undefined;
      const chatRequest = request.translation.request;
      const identity = {
        id: `chatcmpl-${randomUUID().replaceAll('-', '')}`,
        model: request.modelId,
        created: Math.floor(services.clock() / 1000),
      };
      return {
        request: () => chatRequestToCanonical(chatRequest),
        codec: createChatAnswerCodec(identity, request.clientWantsUsage),
      };
    }
    default:
      return assertNever(request, 'dispatch request kind');
  }
}

async function relayTranslatedStream(
  attempt: ChannelAttempt,
  adapter: VendorAdapter,
  call: VendorCall,
  codec: ClientAnswerCodec,
  response: Dispatcher.ResponseData,
  singleToolCall: boolean,
): Promise<AttemptResult> {
  const { services, control, channel } = attempt;
  if (!isStreamContentType(headerValue(response.headers['content-type']))) return notAnEventStream(attempt, response);
  const decoded = adapter.decodeStream(response.body, call);
  const relayed = await relayCanonicalStream({
    parts: singleToolCall ? keepFirstToolCallOfStream(decoded) : decoded,
    upstreamBody: response.body,
    writer: createStreamWriter(attempt),
    encoder: codec.createStreamEncoder(),
    beforeLastBytes: codec.beforeLastBytes?.bind(codec),
    redact: (text) => redactChannelSecrets(text, channel),
    observePart: attempt.responseFacts?.readPart.bind(attempt.responseFacts),
  });
  if (relayed.kind === 'failed-before-first-byte') {
    if (control.aborted) return clientClosedFailure();
    services.metrics.upstreamFailures.inc({ channel: channel.name, reason: 'stream' });
    // The adapter's error for a stream that broke or sent an error event before any byte: judged by the status it maps to.
    return withChannelOutcome(
      { kind: 'retryable-failure', error: redactGatewayError(relayed.error, channel) },
      mapStatusToChannelOutcome(relayed.error.status, undefined),
    );
  }
  const { outcome } = relayed;
  const value = {
    status: 200,
    usage: outcome.usage,
    firstByteAt: outcome.firstEventAt,
    errorCode: outcome.error?.code,
    generatedText: outcome.generatedText,
    answerUsage: undefined,
  };
  return { kind: 'success', value };
}

const jsonContentType = 'application/json; charset=utf-8';

/** The OpenAI-wire path of text to speech, whose plain answer is audio bytes. */
const speechPath = '/audio/speech';

/**
 * A speech answer of an OpenAI-wire channel: its audio bytes relayed as they arrive under the vendor's Content-Type.
 * A JSON or HTML 200 is no audio (never relayed, never billed); a body that breaks before its first byte lets another
 * channel answer; one that breaks after it cuts the client and bills nothing (the vendor proved no complete answer).
 */
async function relaySpeechAudio(
  attempt: ChannelAttempt,
  contentType: string,
  response: Dispatcher.ResponseData,
): Promise<AttemptResult> {
  const { services, channel, client, request, control } = attempt;
  if (/json|html/i.test(contentType)) {
    discardUpstreamBody(response.body);
    return unreadableAnswer(attempt, 'not-audio');
  }
  const maximumBytes = services.config.upstreamMaxBodyBytes ?? defaultUpstreamMaxBodyBytes;
  const relayed = await streamThroughAudioAnswer({
    body: response.body,
    client,
    headers: [request.responseHeaders, { 'content-type': contentType }],
    maximumBytes,
    clientDrainTimeoutMs: services.config.streamWriteTimeoutMs,
    clock: services.clock,
  });
  if (relayed.kind === 'failed-before-first-byte') {
    if (control.aborted) return clientClosedFailure();
    services.metrics.upstreamFailures.inc({ channel: channel.name, reason: relayed.fault });
    if (relayed.fault === 'too-large') return unusableUpstreamAnswer(tooLargeMessage(maximumBytes));
    if (relayed.fault === 'empty') return unreadableAnswer(attempt, 'empty');
    return withChannelOutcome(mapUpstreamTransportFailure(), { kind: 'connection-error' });
  }
  const value = { firstByteAt: relayed.firstByteAt, errorCode: undefined, generatedText: undefined, usage: undefined };
  if (relayed.fault === undefined || relayed.fault === 'client-gone')
    // Audio bytes carry no usage: the vendor answered, so the request is billed by its estimate (characters or tokens).
    return { kind: 'success', value: { ...value, status: 200, answerUsage: noExtraAnswerUsage } };
  services.metrics.upstreamFailures.inc({ channel: channel.name, reason: relayed.fault });
  services.logger.warn({ channel: channel.name, fault: relayed.fault }, 'speech audio broke while it was relayed');
  return {
    kind: 'success',
    value: { ...value, status: 502, errorCode: 'upstream_error', answerUsage: undefined },
  };
}

/** The size cap of a vendor answer when the services do not set one (`GATEWAY_UPSTREAM_MAX_BODY_BYTES`'s default). */
const defaultUpstreamMaxBodyBytes = 64 * 1024 * 1024;

/** The deadline of a non-streamed answer when the services do not set one (`GATEWAY_UPSTREAM_ANSWER_TIMEOUT_MS`'s default). */
const defaultUpstreamAnswerTimeoutMs = 300_000;

/** The status a breaker records for a 2xx answer the gateway could not read: a bad gateway. */
const unusableAnswerStatus = 502;

function createStreamWriter(attempt: ChannelAttempt): ClientStreamWriter {
  const { client, request, services } = attempt;
  return new ClientStreamWriter({
    client,
    responseHeaders: request.responseHeaders,
    clock: services.clock,
    clientDrainTimeoutMs: services.config.streamWriteTimeoutMs,
    drain: attempt.control,
  });
}

/** Non-streamed answers that may be larger than this (by their Content-Length, or with none) are streamed through. */
const streamThroughThresholdBytes = 1024 * 1024;

/**
 * Whether a non-streamed OpenAI-wire answer is relayed as it comes instead of read whole: embeddings answers (a batch
 * may be tens of MB; their usage is at the end) that are or may be over 1 MiB and within the size cap. Images and
 * transcriptions are read whole: their bill counts the images and reads the duration from the whole answer.
 */
function streamsThrough(attempt: ChannelAttempt, upstreamPath: string, response: Dispatcher.ResponseData): boolean {
  if (upstreamPath !== '/embeddings' || response.statusCode !== 200) return false;
  const declared = headerValue(response.headers['content-length']);
  if (declared === undefined) return true;
  const length = Number(declared);
  return (
    length > streamThroughThresholdBytes &&
    length <= (attempt.services.config.upstreamMaxBodyBytes ?? defaultUpstreamMaxBodyBytes)
  );
}

/** A large embeddings answer streamed through (see stream-through-json-answer.ts), or its text when it was small after all. */
async function streamThrough(
  attempt: ChannelAttempt,
  upstreamPath: string,
  contentType: string,
  response: Dispatcher.ResponseData,
): Promise<{ kind: 'whole'; text: string } | { kind: 'done'; result: AttemptResult }> {
  const { services, channel, client, request, control } = attempt;
  const maximumBytes = services.config.upstreamMaxBodyBytes ?? defaultUpstreamMaxBodyBytes;
  let relayed: Awaited<ReturnType<typeof streamThroughJsonAnswer>>;
  try {
    relayed = await streamThroughJsonAnswer({
      body: response.body,
      client,
      headers: [request.responseHeaders, { 'content-type': contentType }],
      maximumBytes,
      clientDrainTimeoutMs: services.config.streamWriteTimeoutMs,
      clock: services.clock,
      writeToClient: !control.abandoned,
      checkHead: (headText) => findOpenAiWireAnswerHeadFault(upstreamPath, contentType, headText),
      checkTail: findOpenAiWireAnswerTailFault,
    });
  } catch (error) {
    if (control.aborted) return { kind: 'done', result: clientClosedFailure() };
    services.metrics.upstreamFailures.inc({ channel: channel.name, reason: 'transport' });
    return { kind: 'done', result: transportFailure(error, transportFailureOutcome(error)) };
  }
  switch (relayed.kind) {
    case 'whole':
      return relayed;
    case 'refused':
      if (relayed.fault === 'too-large') {
        services.metrics.upstreamFailures.inc({ channel: channel.name, reason: 'too-large' });
        return { kind: 'done', result: unusableUpstreamAnswer(tooLargeMessage(maximumBytes)) };
      }
      return { kind: 'done', result: unreadableAnswer(attempt, relayed.fault) };
    case 'relayed': {
      if (relayed.fault) {
        // Too late for a 502: the client's connection was cut mid-answer, and nothing the vendor proved is billed.
        services.metrics.upstreamFailures.inc({ channel: channel.name, reason: relayed.fault });
        services.logger.warn(
          { channel: channel.name, fault: relayed.fault },
          'upstream answer broke while it was streamed through',
        );
        return {
          kind: 'done',
          result: {
            kind: 'success',
            value: {
              status: 502,
              usage: undefined,
              firstByteAt: relayed.firstByteAt,
              errorCode: 'upstream_error',
              generatedText: undefined,
              answerUsage: undefined,
            },
          },
        };
      }
      const usage = extractUsageFromJsonText(relayed.tailText);
      return {
        kind: 'done',
        result: {
          kind: 'success',
          value: {
            status: 200,
            usage,
            firstByteAt: relayed.firstByteAt,
            errorCode: undefined,
            generatedText: undefined,
            answerUsage: usage ? noExtraAnswerUsage : { text: '' },
          },
        },
      };
    }
    default: {
      const unreachable: never = relayed;
      throw new Error(`Unhandled stream-through result ${String(unreachable)}`);
    }
  }
}

/** A non-streamed vendor answer as text, at most `upstreamMaxBodyBytes` of it; a larger or broken one is a failure. */
async function readBody(attempt: ChannelAttempt, response: Dispatcher.ResponseData): Promise<string | AttemptResult> {
  const maximumBytes = attempt.services.config.upstreamMaxBodyBytes ?? defaultUpstreamMaxBodyBytes;
  try {
    const read = await readCappedUpstreamText(
      response.body,
      maximumBytes,
      headerValue(response.headers['content-length']),
    );
    if (read.kind === 'text') return read.text;
    attempt.services.metrics.upstreamFailures.inc({ channel: attempt.channel.name, reason: 'too-large' });
    attempt.services.logger.warn(
      { channel: attempt.channel.name, maximumBytes },
      'upstream answer larger than GATEWAY_UPSTREAM_MAX_BODY_BYTES',
    );
    return unusableUpstreamAnswer(tooLargeMessage(maximumBytes));
  } catch (error) {
    if (attempt.control.aborted) return clientClosedFailure();
    attempt.services.metrics.upstreamFailures.inc({ channel: attempt.channel.name, reason: 'transport' });
    return transportFailure(error, transportFailureOutcome(error));
  }
}

/** Sends a non-streamed answer; returns when its first byte left (Unix ms), or undefined when the client already left. */
async function answerClient(
  attempt: ChannelAttempt,
  status: number,
  contentType: string,
  body: string,
): Promise<number | undefined> {
  // A client that left while the vendor worked gets no answer, but the answer is billed from its usage.
  if (attempt.control.abandoned) return undefined;
  const firstByteAt = attempt.services.clock();
  await attempt.client.sendAnswer(status, [attempt.request.responseHeaders, { 'content-type': contentType }], body);
  return firstByteAt;
}

/** A streamed request the vendor answered without a stream (plain JSON, a page): a bad gateway, before any byte. */
function notAnEventStream(attempt: ChannelAttempt, response: Dispatcher.ResponseData): AttemptResult {
  discardUpstreamBody(response.body);
  attempt.services.metrics.upstreamFailures.inc({ channel: attempt.channel.name, reason: 'not-a-stream' });
  return {
    kind: 'retryable-failure',
    error: notAnEventStreamError(),
    channelOutcome: { kind: 'vendor-error', status: unusableAnswerStatus },
  };
}

/** A 2xx answer that is not the endpoint's (`fault` says how, for the log): never relayed, never billed. */
function unreadableAnswer(attempt: ChannelAttempt, fault: string): AttemptResult {
  attempt.services.metrics.upstreamFailures.inc({ channel: attempt.channel.name, reason: 'unreadable' });
  attempt.services.logger.warn({ channel: attempt.channel.name, fault }, "upstream answer is not the endpoint's shape");
  return unusableUpstreamAnswer(unreadableAnswerMessage);
}

function cannotServe(channel: RoutableChannel): UpstreamAttemptResult<never> {
  return {
    kind: 'retryable-failure',
    error: new GatewayError(
      'service_unavailable',
      `The channel protocol '${channel.protocol}' cannot serve this endpoint.`,
    ),
  };
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
