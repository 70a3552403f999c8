import type { Attributes } from '@opentelemetry/api';
import { assertNever } from '../core/assert-never.js';
import type { TokenUsage } from '../core/token-usage.js';
import type { ChannelAttemptResult } from '../dispatch/channel-attempt-result.js';
import type {
  AttemptTrace,
  DispatchObserver,
  ObservedAttemptValue,
  ObservedRequest,
} from '../dispatch/dispatch-observer.js';
import { ResponseFactsCollector, type ResponseFacts } from '../dispatch/response-facts-collector.js';
import { genAiAttributeNames as names } from '../observability/telemetry/gen-ai-attribute-names.js';
import type { GatewaySpan } from '../observability/telemetry/gen-ai-tracing.js';
import type { Telemetry } from '../observability/telemetry/start-telemetry.js';
import type { RoutableChannel } from '../routing/routing-table.js';
import { genAiProviderOfChannel } from './gen-ai-provider-of-channel.js';
import { serverAddressOfUrl } from './server-address-of-url.js';

/** The attempt's span, and the headers naming it for the vendor. */
interface TracedAttempt extends AttemptTrace {
  span: GatewaySpan;
}

/** `error.type` of an attempt the gateway's own code broke (the conventions' fallback value). */
const otherErrorType = '_OTHER';

/**
 * The DispatchObserver over OpenTelemetry: a CLIENT span per upstream attempt (when tracing is on), named
 * `{gen_ai.operation.name} {gen_ai.request.model}` with the model sent upstream, and `gen_ai.client.*` metrics always.
 */
export function createTelemetryDispatchObserver(telemetry: Telemetry): DispatchObserver {
  const { tracing, metrics } = telemetry;
  return {
    startAttempt(request, channel, attemptNumber) {
      if (!tracing) return undefined;
      const operation = request.operationName ?? 'chat';
      const upstreamModel = upstreamModelOf(request, channel);
      const attributes: Attributes = {
        [names.operationName]: operation,
        [names.providerName]: genAiProviderOfChannel(channel),
        [names.requestModel]: upstreamModel,
        [names.requestStream]: request.stream,
        [names.gatewayChannelId]: channel.id,
        [names.gatewayChannelName]: channel.name,
        [names.gatewayAttempt]: attemptNumber,
      };
      const server = serverAddressOfUrl(channel.baseUrl);
      if (server) {
        attributes[names.serverAddress] = server.address;
        attributes[names.serverPort] = server.port;
      }
      const span = tracing.startAttemptSpan(`${operation} ${upstreamModel}`, attributes);
      const traced: TracedAttempt = {
        span,
        vendorHeaders: tracing.vendorHeadersOf(span),
        // Only a recording span pays for reading the answer's id, model and finish reasons.
        responseFacts: span.isRecording() ? new ResponseFactsCollector() : undefined,
      };
      return traced;
    },
    endAttempt(request, channel, startedAt, result, trace) {
      const errorType = errorTypeOf(result);
      const usage = result?.kind === 'success' ? result.value.usage : undefined;
      metrics.recordAttempt({
        operation: request.operationName ?? 'chat',
        provider: genAiProviderOfChannel(channel),
        requestModel: upstreamModelOf(request, channel),
        errorType,
        durationSeconds: (performance.now() - startedAt) / 1000,
        inputTokens: usage?.promptTokens,
        outputTokens: usage?.completionTokens,
      });
      if (!tracing || !trace) return;
      const { span } = trace as TracedAttempt;
      if (result) span.setAttribute(names.httpResponseStatusCode, statusOf(result));
      if (usage) setUsageAttributes(span, usage);
      const facts = trace.responseFacts?.facts();
      if (facts) {
        const answered = responseAttributesOf(facts);
        span.setAttributes(answered);
        // The request's span tells what answered it: the model and how it ended (the id is the vendor's, per attempt).
        if (result?.kind === 'success') tracing.setOnActiveSpan(withoutResponseId(answered));
      }
      tracing.endSpan(span, errorType);
    },
    channelSkipped(request, channel) {
      tracing?.addEventToActiveSpan('gateway.channel.skipped', {
        [names.gatewayChannelId]: channel.id,
        [names.gatewayChannelName]: channel.name,
        [names.providerName]: genAiProviderOfChannel(channel),
        [names.errorType]: 'circuit_open',
      });
    },
  };
}

/** The model id the channel is sent: its mapping of the public one, or the public one. */
function upstreamModelOf(request: ObservedRequest, channel: RoutableChannel): string {
  return channel.modelMapping.get(request.modelId) ?? request.modelId;
}

/** The error code of a failed attempt (or of a relayed answer that ended in an error); '' for a success. */
function errorTypeOf(result: ChannelAttemptResult<ObservedAttemptValue> | undefined): string {
  if (result === undefined) return otherErrorType;
  switch (result.kind) {
    case 'success':
      if (result.value.errorCode !== undefined) return result.value.errorCode;
      return result.value.status >= 400 ? String(result.value.status) : '';
    case 'retryable-failure':
    case 'final-failure':
      return result.error.code;
    default:
      return assertNever(result, 'attempt result kind');
  }
}

function statusOf(result: ChannelAttemptResult<ObservedAttemptValue>): number {
  return result.kind === 'success' ? result.value.status : result.error.status;
}

/** The conventions' `gen_ai.response.*` attributes of what an answer said of itself. */
function responseAttributesOf(facts: ResponseFacts): Attributes {
  const attributes: Attributes = {};
  if (facts.id !== undefined) attributes[names.responseId] = facts.id;
  if (facts.model !== undefined) attributes[names.responseModel] = facts.model;
  if (facts.finishReasons.length > 0) attributes[names.responseFinishReasons] = facts.finishReasons;
  return attributes;
}

function withoutResponseId(attributes: Attributes): Attributes {
  const { [names.responseId]: _responseId, ...rest } = attributes;
  return rest;
}

/** The conventions' usage attributes: input includes cached tokens, output includes reasoning. */
export function setUsageAttributes(span: GatewaySpan, usage: TokenUsage): void {
  span.setAttribute(names.usageInputTokens, usage.promptTokens);
  span.setAttribute(names.usageOutputTokens, usage.completionTokens);
  span.setAttribute(names.usageCacheReadInputTokens, usage.cachedPromptTokens);
  span.setAttribute(names.usageCacheCreationInputTokens, usage.cacheWritePromptTokens ?? 0);
  span.setAttribute(names.usageReasoningOutputTokens, usage.reasoningTokens);
}
