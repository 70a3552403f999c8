import { isSpanContextValid, trace } from '@opentelemetry/api';

/** The fields of a log line written while a span is active (the OpenTelemetry log correlation names). */
export interface TraceLogFields {
  /** 32 hex digits */
  trace_id?: string;
  /** 16 hex digits */
  span_id?: string;
  /** two hex digits, `01` when sampled */
  trace_flags?: string;
}

/** What a line written outside any span gets; never handed out for changing (see traceLogMergeStrategy). */
const noTraceFields: TraceLogFields = Object.freeze({});

/**
 * pino's `mixin`: the active span's `trace_id`, `span_id` and `trace_flags`, so a log line can be found from its trace
 * and back. Without a registered context manager or outside any span it returns the one shared empty object, at the
 * cost of one function call per line.
 */
export function traceLogFields(): TraceLogFields {
  const span = trace.getActiveSpan();
  if (span === undefined) return noTraceFields;
  const spanContext = span.spanContext();
  if (!isSpanContextValid(spanContext)) return noTraceFields;
  return {
    trace_id: spanContext.traceId,
    span_id: spanContext.spanId,
    trace_flags: spanContext.traceFlags.toString(16).padStart(2, '0'),
  };
}

/**
 * pino's `mixinMergeStrategy` for traceLogFields: the line's own fields win over the trace fields, and a line without
 * a span is written as it is (pino's default would copy it into the shared empty object).
 */
export function traceLogMergeStrategy(mergeObject: object, mixinObject: object): object {
  if (mixinObject === noTraceFields) return mergeObject;
  return Object.assign(mixinObject, mergeObject);
}
