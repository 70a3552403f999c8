import type { FastifyReply, FastifyRequest } from 'fastify';
import { assertNever } from '../core/assert-never.js';
import { GatewayError } from '../core/gateway-error.js';
import type { RequestEstimate } from '../core/request-estimate.js';
import { estimateDocumentPages, type DocumentPageCounts } from '../billing/estimate-document-pages.js';
import type {
  CanonicalDispatchRequest,
  DispatchOutcome,
  DispatchRequest,
  OpenAiWireDispatchRequest,
} from '../dispatch/dispatch-request.js';
import { dispatchToChannels } from '../dispatch/dispatch-to-channels.js';
import type { CatalogModel } from '../routing/catalog-model.js';
import { FastifyClientSink } from './fastify-client-sink.js';
import { BodyCapturingClientSink } from './body-capturing-client-sink.js';
import type { GatewayServices } from './gateway-services.js';
import { recordForwardingOutcome } from './record-forwarding-outcome.js';
import { genAiOperationOfEndpoint } from './gen-ai-operation-of-endpoint.js';
import {
  costRecorderOf,
  describeForwardingRequest,
  observeForwardingEnd,
  startForwardingSpan,
} from './observe-forwarding.js';
import type { GatewaySpan } from '../observability/telemetry/gen-ai-tracing.js';
import type { MeteredEndpoint, MeteredResult, MeteredTicket, PromptCacheTtl } from '../billing/request-accounting.js';

/** What a /v1 request carries besides its dispatch request: what admits, settles and answers it. */
export interface MeteredFields {
  reply: FastifyReply;
  services: GatewayServices;
  request: FastifyRequest;
  model: CatalogModel;
  endpoint: MeteredEndpoint;
  /** what the request asks for, estimated once by its client protocol (src/protocols/): what billing holds it by */
  estimate: RequestEstimate;
  uploadedBytes?: number;
  uploadedAudioSeconds?: number;
  /** channel id -> premium price ratio (millionths) when the request uses a price-changing field (see MeteredRequest) */
  premiumPriceRatios?: ReadonlyMap<string, number>;
  /** the longest prompt-cache TTL a Messages request asks for (see MeteredRequest) */
  promptCacheTtl?: PromptCacheTtl;
}

/** The dispatch request's fields a route sets (by its kind); the gateway adds the model id and the response headers. */
type RouteDispatchFields<Request> = Request extends DispatchRequest
  ? Omit<Request, 'responseHeaders' | 'modelId'>
  : never;

/** A /v1 request ready to be admitted, forwarded and settled: an OpenAI-wire or a canonical one (see DispatchRequest). */
export type MeteredForwarding = MeteredFields & RouteDispatchFields<DispatchRequest>;

/**
 * Every /v1 call that reaches an upstream goes through here: accounting admits it (or answers 429 before
 * any upstream call), the request is forwarded with failover, and accounting settles exactly once,
 * whatever happened in between. A graceful shutdown waits for this to finish (see InFlightForwardings).
 */
export function forwardMetered(forwarding: MeteredForwarding): Promise<void> {
  const tracing = forwarding.services.telemetry?.tracing;
  let work: Promise<void>;
  if (tracing) {
    // The request's SERVER span is the active context of all its async work: attempts' spans and log lines see it.
    const started = startForwardingSpan(forwarding, tracing);
    work = tracing.runWithin(started.context, () => forwardAndSettle(forwarding, started.span));
  } else {
    work = forwardAndSettle(forwarding, undefined);
  }
  forwarding.services.inFlight?.track(work);
  return work;
}

async function forwardAndSettle(forwarding: MeteredForwarding, span: GatewaySpan | undefined): Promise<void> {
  const { request, services } = forwarding;
  let ticket: MeteredTicket;
  try {
    const admitted = admit(forwarding);
    // Most admissions need no await (one node, memory only): each await costs a promise and a turn of the microtask queue.
    ticket = admitted instanceof Promise ? await admitted : admitted;
  } catch (error) {
    // Refused before any upstream call (429, 403, a PDF over budget): the request's span and metrics still end.
    observeForwardingEnd(forwarding, failedOutcome(error), services.clock(), span);
    throw error;
  }
  let outcome: DispatchOutcome;
  // Only with the body log on (off by default) does a non-streamed JSON request keep its answer for the log.
  const sink =
    services.requestBodyLog && !forwarding.stream && request.rawJsonBody
      ? new BodyCapturingClientSink(forwarding.reply)
      : new FastifyClientSink(forwarding.reply);
  try {
    const dispatchRequest = dispatchRequestOf(forwarding, ticket.responseHeaders);
    describeForwardingRequest(span, dispatchRequest);
    outcome = await dispatchToChannels(dispatchRequest, sink, services);
  } catch (error) {
    const failure = failedOutcome(error);
    const failedAt = services.clock();
    services.accounting.close(ticket, { ...failure, finishedAt: failedAt });
    recordForwardingOutcome(services, request, forwarding.endpoint, failure);
    observeForwardingEnd(forwarding, failure, failedAt, span);
    throw error;
  }
  const finishedAt = services.clock();
  const onSettled = span ? costRecorderOf(span) : undefined;
  services.accounting.close(ticket, { ...outcome, finishedAt, onSettled } satisfies MeteredResult);
  recordForwardingOutcome(services, request, forwarding.endpoint, outcome);
  observeForwardingEnd(forwarding, outcome, finishedAt, span);
  if (sink instanceof BodyCapturingClientSink) recordBodies(forwarding, outcome.status, sink.answerBody);
}

/** Admission by accounting: the hold, rate limits and balance; throws (or rejects with) the refusal. */
function admit(forwarding: MeteredForwarding): MeteredTicket | Promise<MeteredTicket> {
  const counting = countDocumentPagesAfterAdmission(forwarding);
  if (counting === undefined) return openTicket(forwarding, undefined);
  return counting.then((documentPages) => openTicket(forwarding, documentPages));
}

function openTicket(
  forwarding: MeteredForwarding,
  documentPages: DocumentPageCounts | undefined,
): MeteredTicket | Promise<MeteredTicket> {
  const { request, services } = forwarding;
  return services.accounting.open({
    principal: request.principal,
    model: forwarding.model,
    endpoint: forwarding.endpoint,
    estimate: forwarding.estimate,
    uploadedBytes: forwarding.uploadedBytes ?? 0,
    uploadedAudioSeconds: forwarding.uploadedAudioSeconds,
    streamed: forwarding.stream,
    clientIp: request.ip,
    requestId: String(request.id),
    receivedAt: request.receivedAt,
    premiumPriceRatios: forwarding.premiumPriceRatios,
    promptCacheTtl: forwarding.promptCacheTtl,
    documentPages,
  });
}

/** Hands the request's body and its JSON answer to the body log, which queues them; headers (keys) are never kept. */
function recordBodies(forwarding: MeteredForwarding, status: number, answerBody: string | undefined): void {
  const { request, services } = forwarding;
  const requestBody = request.rawJsonBody?.bytes;
  if (!services.requestBodyLog || !requestBody) return;
  services.requestBodyLog.record({
    requestId: String(request.id),
    createdAt: request.receivedAt,
    userId: request.principal.userId,
    apiKeyId: request.principal.apiKeyId,
    endpoint: forwarding.endpoint,
    status,
    requestBody,
    responseBody: answerBody,
  });
}

/**
 * Page counts of the request's inline PDFs, for its hold. Counting may decompress (within the request's budget, off the
 * main thread), so the checks that need no body run first: a key without balance, over its cap or out of requests is
 * refused before any of that work. Undefined for the many requests without a PDF, which then need no await.
 */
function countDocumentPagesAfterAdmission(forwarding: MeteredForwarding): Promise<DocumentPageCounts> | undefined {
  const { request, services } = forwarding;
  const documents = forwarding.estimate.inlinePdfs;
  if (documents.length === 0) return undefined;
  return services.accounting
    .checkBeforeBody({ principal: request.principal, clientIp: request.ip, receivedAt: request.receivedAt })
    .then(() => estimateDocumentPages(documents, services.config.decompressionBudgetBytes));
}

/**
 * The dispatch request of a forwarding, field by field: `{ ...forwarding, ... }` copied the reply, request, services and
 * the rest too, about 1.2 KB of allocation a request (sampling heap profiler). EveryField makes a new field of either
 * kind a compile error here.
 */
function dispatchRequestOf(forwarding: MeteredForwarding, responseHeaders: Record<string, string>): DispatchRequest {
  switch (forwarding.kind) {
    case 'openai-wire': {
      const request: EveryField<OpenAiWireDispatchRequest> = {
        kind: 'openai-wire',
        modelId: forwarding.model.id,
        upstreamPath: forwarding.upstreamPath,
        buildBody: forwarding.buildBody,
        translation: forwarding.translation,
        acceptsChannel: forwarding.acceptsChannel,
        stream: forwarding.stream,
        clientWantsUsage: forwarding.clientWantsUsage,
        responseHeaders,
        maxOutputTokens: forwarding.maxOutputTokens,
        modelReasoning: forwarding.model.reasoning,
        cacheAffinityKey: forwarding.cacheAffinityKey,
        operationName: genAiOperationOfEndpoint(forwarding.endpoint),
      };
      return request;
    }
    case 'canonical': {
      const request: EveryField<CanonicalDispatchRequest> = {
        kind: 'canonical',
        modelId: forwarding.model.id,
        canonical: forwarding.canonical,
        passThrough: forwarding.passThrough,
        acceptsChannel: forwarding.acceptsChannel,
        stream: forwarding.stream,
        clientWantsUsage: forwarding.clientWantsUsage,
        responseHeaders,
        maxOutputTokens: forwarding.maxOutputTokens,
        modelReasoning: forwarding.model.reasoning,
        cacheAffinityKey: forwarding.cacheAffinityKey,
        operationName: genAiOperationOfEndpoint(forwarding.endpoint),
      };
      return request;
    }
    default:
      return assertNever(forwarding, 'forwarding kind');
  }
}

/** `Type` with its optional fields required (each may still be undefined): an object literal must name them all. */
type EveryField<Type> = { [Key in keyof Required<Type>]: Type[Key] };

function failedOutcome(error: unknown): DispatchOutcome {
  const gatewayError = error instanceof GatewayError ? error : undefined;
  return {
    channelId: undefined,
    status: gatewayError?.status ?? 500,
    errorCode: gatewayError?.code ?? 'server_error',
    clientAborted: false,
    sentUpstream: false,
    usageUnknown: false,
    usage: undefined,
    firstByteAt: undefined,
    generatedText: undefined,
    answerUsage: undefined,
  };
}
