import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  context,
  defaultTextMapGetter,
  defaultTextMapSetter,
  trace,
  type Attributes,
  type Context,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { genAiAttributeNames } from './gen-ai-attribute-names.js';

/** A span the gateway opened; undefined everywhere when tracing is off, so the hot path then does no span work. */
export type GatewaySpan = Span;

/**
 * Starts the gateway's spans by the GenAI conventions: a SERVER span per client request (its parent a client's W3C
 * `traceparent`), made the active context of the request's async work, and a CLIENT span per upstream attempt under it.
 */
export class GenAiTracing {
  private readonly propagator = new W3CTraceContextPropagator();

  constructor(
    private readonly tracer: Tracer,
    /** whether `traceparent` goes to vendors (GATEWAY_OTEL_PROPAGATE_TO_VENDORS) */
    readonly propagatesToVendors: boolean,
  ) {}

  /**
   * The SERVER span of a client request, started when the request arrived (Unix ms), child of the client's
   * `traceparent` when it sent a valid one; returns the context to run the request's work in.
   */
  startRequestSpan(
    name: string,
    startedAt: number,
    clientHeaders: Record<string, string | string[] | undefined>,
    attributes: Attributes,
  ): { span: GatewaySpan; context: Context } {
    const parent = this.propagator.extract(ROOT_CONTEXT, clientHeaders, defaultTextMapGetter);
    const span = this.tracer.startSpan(name, { kind: SpanKind.SERVER, startTime: startedAt, attributes }, parent);
    return { span, context: trace.setSpan(parent, span) };
  }

  /** Runs `work` with `spanContext` active, so every span, log line and timer it starts sees the request's trace. */
  runWithin<Result>(spanContext: Context, work: () => Result): Result {
    return context.with(spanContext, work);
  }

  /** A CLIENT span for one upstream attempt, child of the active (request) span. */
  startAttemptSpan(name: string, attributes: Attributes): GatewaySpan {
    return this.tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes }, context.active());
  }

  /** The `traceparent` (and `tracestate`) naming the attempt's span, when the operator lets vendors see it. */
  vendorHeadersOf(span: GatewaySpan): Record<string, string> | undefined {
    if (!this.propagatesToVendors || !span.isRecording()) return undefined;
    const headers: Record<string, string> = {};
    this.propagator.inject(trace.setSpan(context.active(), span), headers, defaultTextMapSetter);
    return headers;
  }

  /** An event on the active (request) span, if one is recording: a channel its breaker left out, say. */
  addEventToActiveSpan(name: string, attributes: Attributes): void {
    trace.getSpan(context.active())?.addEvent(name, attributes);
  }

  /** Attributes on the active (request) span, if one is recording: what the answering attempt learnt of the answer. */
  setOnActiveSpan(attributes: Attributes): void {
    trace.getSpan(context.active())?.setAttributes(attributes);
  }

  /** Ends a span; a non-empty `errorType` marks it failed (`error.type` and status ERROR). */
  endSpan(span: GatewaySpan, errorType: string, endedAt?: number): void {
    if (errorType !== '') {
      span.setAttribute(genAiAttributeNames.errorType, errorType);
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    span.end(endedAt);
  }
}
