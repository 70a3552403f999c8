import type { Context } from '@opentelemetry/api';
import type { FastifyRequest } from 'fastify';
import type { MeteredEndpoint } from '../billing/request-accounting.js';
import type { DispatchOutcome, DispatchRequest } from '../dispatch/dispatch-request.js';
import { genAiAttributeNames as names } from '../observability/telemetry/gen-ai-attribute-names.js';
import type { GatewaySpan, GenAiTracing } from '../observability/telemetry/gen-ai-tracing.js';
import { genAiOperationOfEndpoint } from './gen-ai-operation-of-endpoint.js';
import { genAiProviderOfChannel } from './gen-ai-provider-of-channel.js';
import { genAiRequestParameters } from './gen-ai-request-parameters.js';
import type { GatewayServices } from './gateway-services.js';
import { setUsageAttributes } from './telemetry-dispatch-observer.js';

/** What telemetry reads of a /v1 forwarding (MeteredForwarding has all of it). */
export interface ObservedForwarding {
  services: GatewayServices;
  request: FastifyRequest;
  endpoint: MeteredEndpoint;
  model: { id: string };
  stream: boolean;
}

/**
 * The SERVER span of a /v1 request, started when the request arrived, child of the client's `traceparent`: ids of
 * the request, key and user under `gateway.`; never the messages (content capture is not offered).
 */
export function startForwardingSpan(
  forwarding: ObservedForwarding,
  tracing: GenAiTracing,
): { span: GatewaySpan; context: Context } {
  const { request } = forwarding;
  const operation = genAiOperationOfEndpoint(forwarding.endpoint);
  return tracing.startRequestSpan(`${operation} ${forwarding.model.id}`, request.receivedAt, request.headers, {
    [names.operationName]: operation,
    [names.requestModel]: forwarding.model.id,
    [names.requestStream]: forwarding.stream,
    [names.gatewayRequestId]: String(request.id),
    [names.gatewayApiKeyId]: request.principal.apiKeyId,
    [names.gatewayUserId]: request.principal.userId,
  });
}

/** Adds the request's parameters to its span once its dispatch request is built (only a recording span pays for it). */
export function describeForwardingRequest(span: GatewaySpan | undefined, dispatchRequest: DispatchRequest): void {
  if (span?.isRecording()) span.setAttributes(genAiRequestParameters(dispatchRequest));
}

/**
 * Puts the settled cost (micro-units) on the request's span: settlement within `close` happens before the span ends;
 * a later one (a tokenizer count) finds it ended and is left out.
 */
export function costRecorderOf(span: GatewaySpan): (costInMicroUnits: number) => void {
  return (costInMicroUnits) => {
    if (span.isRecording()) span.setAttribute(names.gatewayCost, costInMicroUnits);
  };
}

/**
 * The end of a /v1 request: the `gen_ai.server.*` metrics (always, when the app has telemetry), and its span's end
 * with the answering channel, the usage, the status and `error.type`.
 */
export function observeForwardingEnd(
  forwarding: ObservedForwarding,
  outcome: DispatchOutcome,
  finishedAt: number,
  span: GatewaySpan | undefined,
): void {
  const telemetry = forwarding.services.telemetry;
  if (!telemetry) return;
  const { request } = forwarding;
  const operation = genAiOperationOfEndpoint(forwarding.endpoint);
  const channel =
    outcome.channelId === undefined
      ? undefined
      : forwarding.services.routing.current
          .channelsFor(forwarding.model.id)
          .find((candidate) => candidate.id === outcome.channelId);
  const provider = channel ? genAiProviderOfChannel(channel) : '';
  const errorType = outcome.errorCode ?? (outcome.status >= 400 ? String(outcome.status) : '');
  const streamedAnswer = forwarding.stream && errorType === '' && outcome.firstByteAt !== undefined;
  const outputTokens = outcome.usage?.completionTokens ?? 0;
  telemetry.metrics.recordRequest({
    operation,
    provider,
    requestModel: forwarding.model.id,
    errorType,
    durationSeconds: (finishedAt - request.receivedAt) / 1000,
    timeToFirstTokenSeconds:
      streamedAnswer && outcome.firstByteAt !== undefined
        ? (outcome.firstByteAt - request.receivedAt) / 1000
        : undefined,
    timePerOutputTokenSeconds:
      streamedAnswer && outcome.firstByteAt !== undefined && outputTokens > 1
        ? (finishedAt - outcome.firstByteAt) / 1000 / (outputTokens - 1)
        : undefined,
  });
  if (!span || !telemetry.tracing) return;
  if (provider !== '') span.setAttribute(names.providerName, provider);
  if (outcome.channelId !== undefined) span.setAttribute(names.gatewayChannelId, outcome.channelId);
  span.setAttribute(names.httpResponseStatusCode, outcome.status);
  if (outcome.usage) setUsageAttributes(span, outcome.usage);
  telemetry.tracing.endSpan(span, errorType, finishedAt);
}
