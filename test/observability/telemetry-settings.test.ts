import { describe, expect, it } from 'vitest';
import { readTelemetrySettings } from '../../src/config/telemetry-settings.js';
import { startTelemetry } from '../../src/observability/telemetry/start-telemetry.js';

const ignoreReports = (): void => undefined;

describe('readTelemetrySettings (the standard OTEL_* variables)', () => {
  it('exports nothing when no endpoint is set', () => {
    const settings = readTelemetrySettings({});
    expect(settings.tracesEndpoint).toBeUndefined();
    expect(settings.metricsEndpoint).toBeUndefined();
    expect(settings.serviceName).toBe('model-gateway');
    expect(settings.sampler).toEqual({ ratio: 1, parentBased: true });
    expect(settings.propagateToVendors).toBe(false);
  });

  it('appends the signal paths to OTEL_EXPORTER_OTLP_ENDPOINT; a signal endpoint is used as it is', () => {
    const settings = readTelemetrySettings({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/',
      OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'http://metrics:9090/otlp/v1/metrics',
    });
    expect(settings.tracesEndpoint).toBe('http://collector:4318/v1/traces');
    expect(settings.metricsEndpoint).toBe('http://metrics:9090/otlp/v1/metrics');
  });

  it('reads headers (percent-decoded, signal ones over shared ones), sampler, service name and interval', () => {
    const settings = readTelemetrySettings({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'https://collector',
      OTEL_EXPORTER_OTLP_HEADERS: 'Authorization=Bearer%20shared,x-tenant=a',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'x-tenant=traces',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.25',
      OTEL_SERVICE_NAME: 'gateway-eu',
      OTEL_METRIC_EXPORT_INTERVAL: '15000',
      GATEWAY_OTEL_PROPAGATE_TO_VENDORS: 'true',
    });
    expect(settings.tracesHeaders).toEqual({ authorization: 'Bearer shared', 'x-tenant': 'traces' });
    expect(settings.metricsHeaders).toEqual({ authorization: 'Bearer shared', 'x-tenant': 'a' });
    expect(settings.sampler).toEqual({ ratio: 0.25, parentBased: true });
    expect(settings.serviceName).toBe('gateway-eu');
    expect(settings.metricExportIntervalMs).toBe(15_000);
    expect(settings.propagateToVendors).toBe(true);
  });

  it('OTEL_SDK_DISABLED and OTEL_TRACES_EXPORTER=none turn export off', () => {
    expect(readTelemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_SDK_DISABLED: 'true' })).toMatchObject(
      {
        tracesEndpoint: undefined,
        metricsEndpoint: undefined,
      },
    );
    expect(
      readTelemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_TRACES_EXPORTER: 'none' }),
    ).toMatchObject({ tracesEndpoint: undefined, metricsEndpoint: 'http://c/v1/metrics' });
  });

  it('refuses malformed values with the variable named', () => {
    expect(() => readTelemetrySettings({ OTEL_TRACES_SAMPLER: 'sometimes' })).toThrow(/OTEL_TRACES_SAMPLER/);
    expect(() => readTelemetrySettings({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '2' })).toThrow(
      /OTEL_TRACES_SAMPLER_ARG/,
    );
    expect(() => readTelemetrySettings({ OTEL_EXPORTER_OTLP_HEADERS: 'no-equals-sign' })).toThrow(
      /OTEL_EXPORTER_OTLP_HEADERS/,
    );
    expect(() => readTelemetrySettings({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'collector:4318' })).toThrow(
      /TRACES_ENDPOINT/,
    );
    expect(() => readTelemetrySettings({ OTEL_METRIC_EXPORT_INTERVAL: '0' })).toThrow(/OTEL_METRIC_EXPORT_INTERVAL/);
  });
});

describe('startTelemetry', () => {
  const base = readTelemetrySettings({});

  it('has no tracing at all without a traces endpoint, or with a sampler that keeps nothing', async () => {
    const withoutEndpoint = await startTelemetry(base, ignoreReports);
    const ratioZero = await startTelemetry(
      { ...base, tracesEndpoint: 'http://127.0.0.1:9/v1/traces', sampler: { ratio: 0, parentBased: false } },
      ignoreReports,
    );
    expect(withoutEndpoint.tracing).toBeUndefined();
    expect(ratioZero.tracing).toBeUndefined();
    await Promise.all([withoutEndpoint.shutdown(), ratioZero.shutdown()]);
  });

  it('keeps tracing for a parent-based ratio of 0: a client may still send a sampled traceparent', async () => {
    const telemetry = await startTelemetry(
      { ...base, tracesEndpoint: 'http://127.0.0.1:9/v1/traces', sampler: { ratio: 0, parentBased: true } },
      ignoreReports,
    );
    expect(telemetry.tracing).toBeDefined();
    await telemetry.shutdown();
  });

  it('renders recorded GenAI histograms as Prometheus text without an exporter', async () => {
    const telemetry = await startTelemetry(undefined, ignoreReports);
    telemetry.metrics.recordAttempt({
      operation: 'chat',
      provider: 'openai',
      requestModel: 'gpt-4o',
      errorType: '',
      durationSeconds: 0.05,
      inputTokens: 10,
      outputTokens: 3,
    });
    const text = await telemetry.renderPrometheusText();
    expect(text).toMatch(/^gen_ai_client_token_usage_bucket\{.*gen_ai_token_type="input".*le="16"\} 1$/m);
    expect(text).toMatch(/^gen_ai_client_token_usage_bucket\{.*gen_ai_token_type="output".*le="1"\} 0$/m);
    expect(text).toMatch(/^gen_ai_client_operation_duration_bucket\{.*le="0.04"\} 0$/m);
    expect(text).toMatch(/^gen_ai_client_operation_duration_bucket\{.*le="0.08"\} 1$/m);
    await telemetry.shutdown();
  });
});
