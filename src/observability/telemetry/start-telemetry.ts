import { DiagLogLevel, context, diag, type Attributes } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { PrometheusSerializer } from '@opentelemetry/exporter-prometheus';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader, type IMetricReader } from '@opentelemetry/sdk-metrics';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BasicTracerProvider,
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  type Sampler,
} from '@opentelemetry/sdk-trace-base';
import { GenAiMetrics } from './gen-ai-metrics.js';
import { GenAiTracing } from './gen-ai-tracing.js';
import { PullMetricReader } from './pull-metric-reader.js';

/** What telemetry starts from: config/telemetry-settings.ts reads it from the OTEL_* variables. */
export interface TelemetryOptions {
  tracesEndpoint: string | undefined;
  metricsEndpoint: string | undefined;
  tracesHeaders: Record<string, string>;
  metricsHeaders: Record<string, string>;
  sampler: { ratio: number; parentBased: boolean };
  serviceName: string;
  /** milliseconds between two OTLP metric exports */
  metricExportIntervalMs: number;
  propagateToVendors: boolean;
}

/** The running telemetry of one gateway. */
export interface Telemetry {
  /** undefined when tracing is off (no endpoint, or a sampler that can never keep a span): no span work at all */
  tracing: GenAiTracing | undefined;
  /** always on: they feed `/metrics`, and OTLP when a metrics endpoint is set */
  metrics: GenAiMetrics;
  /** the GenAI metrics in the Prometheus text format, for `/metrics` */
  renderPrometheusText(): Promise<string>;
  /** exports what is buffered now (spans and metrics) */
  forceFlush(): Promise<void>;
  /** flushes and stops the exporters; part of the gateway's graceful shutdown */
  shutdown(): Promise<void>;
}

/** How an export failure is reported: OpenTelemetry's own diagnostics go to the gateway's log. */
export type TelemetryReport = (message: string) => void;

const scopeName = 'model-gateway';

/**
 * Starts the tracer and meter providers: spans to an OTLP HTTP/protobuf endpoint only when one is set and the sampler
 * can keep spans; the GenAI histograms always, read by `/metrics` and pushed over OTLP when a metrics endpoint is set.
 * Nothing is registered globally except the async context manager (so the request span is the active context, as
 * `trace.getActiveSpan()` in log lines expects) and the diagnostics logger; several gateways may run in one process.
 */
export function startTelemetry(options: TelemetryOptions | undefined, report: TelemetryReport): Telemetry {
  diag.setLogger(
    {
      error: (message) => report(message),
      warn: (message) => report(message),
      info: () => undefined,
      debug: () => undefined,
      verbose: () => undefined,
    },
    { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true },
  );
  const resource = resourceFromAttributes({ 'service.name': options?.serviceName ?? scopeName });
  const pullReader = new PullMetricReader();
  const readers: IMetricReader[] = [pullReader];
  if (options?.metricsEndpoint !== undefined) {
    readers.push(
      new PeriodicExportingMetricReader({
        exporter: new OTLPMetricExporter({ url: options.metricsEndpoint, headers: options.metricsHeaders }),
        exportIntervalMillis: options.metricExportIntervalMs,
        exportTimeoutMillis: Math.min(30_000, options.metricExportIntervalMs),
      }),
    );
  }
  const meterProvider = new MeterProvider({ resource, readers });
  const metrics = new GenAiMetrics(meterProvider.getMeter(scopeName));
  const tracerProvider = startTracerProvider(options, resource);
  const tracing = tracerProvider
    ? new GenAiTracing(tracerProvider.getTracer(scopeName), options?.propagateToVendors ?? false)
    : undefined;
  const serializer = new PrometheusSerializer(undefined, false, undefined, true, true);
  let shutDown: Promise<void> | undefined;
  return {
    tracing,
    metrics,
    async renderPrometheusText() {
      const { resourceMetrics } = await pullReader.collect();
      return serializer.serialize(resourceMetrics);
    },
    async forceFlush() {
      await Promise.all([tracerProvider?.forceFlush(), meterProvider.forceFlush()]);
    },
    shutdown() {
      shutDown ??= Promise.all([tracerProvider?.shutdown(), meterProvider.shutdown()]).then(
        () => undefined,
        (error: unknown) => report(`telemetry shutdown failed: ${String(error)}`),
      );
      return shutDown;
    },
  };
}

/** A tracer provider exporting by OTLP, or undefined when no span could ever be kept. */
function startTracerProvider(
  options: TelemetryOptions | undefined,
  resource: ReturnType<typeof resourceFromAttributes>,
): BasicTracerProvider | undefined {
  if (options?.tracesEndpoint === undefined) return undefined;
  const { ratio, parentBased } = options.sampler;
  // Ratio 0 without a parent to follow keeps nothing: no provider, so requests do no span work at all.
  if (ratio <= 0 && !parentBased) return undefined;
  registerAsyncContextManager();
  const exporter = new OTLPTraceExporter({ url: options.tracesEndpoint, headers: options.tracesHeaders });
  return new BasicTracerProvider({
    resource,
    sampler: samplerOf(ratio, parentBased),
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
}

function samplerOf(ratio: number, parentBased: boolean): Sampler {
  const root =
    ratio >= 1 ? new AlwaysOnSampler() : ratio <= 0 ? new AlwaysOffSampler() : new TraceIdRatioBasedSampler(ratio);
  return parentBased ? new ParentBasedSampler({ root }) : root;
}

let contextManagerRegistered = false;

/** One AsyncLocalStorage context manager for the process (the API keeps the first one registered). */
function registerAsyncContextManager(): void {
  if (contextManagerRegistered) return;
  contextManagerRegistered = true;
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
}

/** Attributes as the OpenTelemetry API takes them (re-exported so callers need not import the API for a type). */
export type TelemetryAttributes = Attributes;
