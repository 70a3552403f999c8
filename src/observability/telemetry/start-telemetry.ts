import { DiagLogLevel, context, diag } from '@opentelemetry/api';
import { PrometheusSerializer } from '@opentelemetry/exporter-prometheus';
import { resourceFromAttributes, type Resource } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader, type IMetricReader } from '@opentelemetry/sdk-metrics';
import type { BasicTracerProvider, Sampler } from '@opentelemetry/sdk-trace-base';
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
export async function startTelemetry(
  options: TelemetryOptions | undefined,
  report: TelemetryReport,
): Promise<Telemetry> {
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
  const metrics = new GenAiMetrics(resource, scopeName);
  const pullReader = new PullMetricReader({ metricProducers: [metrics] });
  const readers: IMetricReader[] = [pullReader];
  if (options?.metricsEndpoint !== undefined) {
    // Loaded only when configured: the OTLP exporters bring protobuf encoders a gateway without a collector never needs.
    const { OTLPMetricExporter } = await import('@opentelemetry/exporter-metrics-otlp-proto');
    readers.push(
      new PeriodicExportingMetricReader({
        exporter: new OTLPMetricExporter({ url: options.metricsEndpoint, headers: options.metricsHeaders }),
        exportIntervalMillis: options.metricExportIntervalMs,
        exportTimeoutMillis: Math.min(30_000, options.metricExportIntervalMs),
        metricProducers: [metrics],
      }),
    );
  }
  // It has no instruments of its own: the readers need it to collect, and it flushes and shuts them down.
  const meterProvider = new MeterProvider({ resource, readers });
  const tracerProvider = await startTracerProvider(options, resource);
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

/** A tracer provider exporting by OTLP, or undefined when no span could ever be kept (its packages then stay unloaded). */
async function startTracerProvider(
  options: TelemetryOptions | undefined,
  resource: Resource,
): Promise<BasicTracerProvider | undefined> {
  if (options?.tracesEndpoint === undefined) return undefined;
  const { ratio, parentBased } = options.sampler;
  // Ratio 0 without a parent to follow keeps nothing: no provider, so requests do no span work at all.
  if (ratio <= 0 && !parentBased) return undefined;
  const [traceBase, { OTLPTraceExporter }, { AsyncLocalStorageContextManager }] = await Promise.all([
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/exporter-trace-otlp-proto'),
    import('@opentelemetry/context-async-hooks'),
  ]);
  if (!contextManagerRegistered) {
    // One AsyncLocalStorage context manager for the process (the API keeps the first one registered).
    contextManagerRegistered = true;
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  }
  const root: Sampler =
    ratio >= 1
      ? new traceBase.AlwaysOnSampler()
      : ratio <= 0
        ? new traceBase.AlwaysOffSampler()
        : new traceBase.TraceIdRatioBasedSampler(ratio);
  const exporter = new OTLPTraceExporter({ url: options.tracesEndpoint, headers: options.tracesHeaders });
  return new traceBase.BasicTracerProvider({
    resource,
    sampler: parentBased ? new traceBase.ParentBasedSampler({ root }) : root,
    spanProcessors: [new traceBase.BatchSpanProcessor(exporter)],
  });
}

let contextManagerRegistered = false;
