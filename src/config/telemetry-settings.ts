/** Which root spans are kept, from OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG (the OpenTelemetry SDK's names). */
export interface TraceSamplerSetting {
  /** `ratio` keeps that share of traces (by trace id); `always_on` is ratio 1, `always_off` ratio 0 */
  ratio: number;
  /** true for the `parentbased_*` samplers: a client's sampled `traceparent` is followed whatever the ratio */
  parentBased: boolean;
}

/** OpenTelemetry export settings (docs/CONFIGURATION.md, "Traces and GenAI metrics"). */
export interface TelemetrySettings {
  /** where spans go by OTLP HTTP/protobuf (a full URL, e.g. `http://collector:4318/v1/traces`); undefined: no tracing */
  tracesEndpoint: string | undefined;
  /** where metrics go by OTLP HTTP/protobuf; undefined: GenAI metrics on /metrics only */
  metricsEndpoint: string | undefined;
  /** headers sent with every span export (OTEL_EXPORTER_OTLP_HEADERS, OTEL_EXPORTER_OTLP_TRACES_HEADERS) */
  tracesHeaders: Record<string, string>;
  /** headers sent with every metrics export (OTEL_EXPORTER_OTLP_HEADERS, OTEL_EXPORTER_OTLP_METRICS_HEADERS) */
  metricsHeaders: Record<string, string>;
  sampler: TraceSamplerSetting;
  /** the `service.name` resource attribute (OTEL_SERVICE_NAME, default `model-gateway`) */
  serviceName: string;
  /** how often metrics are pushed over OTLP, in milliseconds (OTEL_METRIC_EXPORT_INTERVAL, default 60000) */
  metricExportIntervalMs: number;
  /** GATEWAY_OTEL_PROPAGATE_TO_VENDORS: send `traceparent` to vendors (default off: a vendor learns nothing of the trace) */
  propagateToVendors: boolean;
}

/** The default `service.name`. */
export const defaultTelemetryServiceName = 'model-gateway';

/**
 * Reads the standard OTEL_* variables (and GATEWAY_OTEL_PROPAGATE_TO_VENDORS). A signal is exported only when an
 * endpoint is set for it (its own variable, or OTEL_EXPORTER_OTLP_ENDPOINT with `/v1/traces` or `/v1/metrics`
 * appended, as the specification says); OTEL_SDK_DISABLED=true turns both off. Throws on a malformed value.
 */
export function readTelemetrySettings(environment: NodeJS.ProcessEnv): TelemetrySettings {
  const disabled = environment.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true';
  const base = nonEmpty(environment.OTEL_EXPORTER_OTLP_ENDPOINT)?.replace(/\/+$/, '');
  const sharedHeaders = parseOtlpHeaders(environment.OTEL_EXPORTER_OTLP_HEADERS, 'OTEL_EXPORTER_OTLP_HEADERS');
  const endpointOf = (signalVariable: string, signalPath: string): string | undefined => {
    if (disabled || environment[`OTEL_${signalVariable}_EXPORTER`]?.trim().toLowerCase() === 'none') return undefined;
    const own = nonEmpty(environment[`OTEL_EXPORTER_OTLP_${signalVariable}_ENDPOINT`]);
    const endpoint = own ?? (base === undefined ? undefined : `${base}${signalPath}`);
    if (endpoint !== undefined && !/^https?:\/\//.test(endpoint))
      throw new Error(`OTEL_EXPORTER_OTLP_${signalVariable}_ENDPOINT must be an http(s) URL, got "${endpoint}"`);
    return endpoint;
  };
  return {
    tracesEndpoint: endpointOf('TRACES', '/v1/traces'),
    metricsEndpoint: endpointOf('METRICS', '/v1/metrics'),
    tracesHeaders: {
      ...sharedHeaders,
      ...parseOtlpHeaders(environment.OTEL_EXPORTER_OTLP_TRACES_HEADERS, 'OTEL_EXPORTER_OTLP_TRACES_HEADERS'),
    },
    metricsHeaders: {
      ...sharedHeaders,
      ...parseOtlpHeaders(environment.OTEL_EXPORTER_OTLP_METRICS_HEADERS, 'OTEL_EXPORTER_OTLP_METRICS_HEADERS'),
    },
    sampler: readSampler(environment.OTEL_TRACES_SAMPLER, environment.OTEL_TRACES_SAMPLER_ARG),
    serviceName: nonEmpty(environment.OTEL_SERVICE_NAME) ?? defaultTelemetryServiceName,
    metricExportIntervalMs: readPositiveInteger(environment.OTEL_METRIC_EXPORT_INTERVAL, 60_000),
    propagateToVendors: ['on', 'true', '1'].includes(
      (environment.GATEWAY_OTEL_PROPAGATE_TO_VENDORS ?? '').trim().toLowerCase(),
    ),
  };
}

/** `key1=value1,key2=value2` with percent-encoded values (the OTLP exporter specification's format). */
export function parseOtlpHeaders(raw: string | undefined, variable: string): Record<string, string> {
  const headers: Record<string, string> = {};
  if (raw === undefined || raw.trim() === '') return headers;
  for (const entry of raw.split(',')) {
    const separator = entry.indexOf('=');
    const key = entry.slice(0, separator).trim();
    if (separator <= 0 || key === '') throw new Error(`${variable} must be key=value pairs separated by commas`);
    try {
      headers[key.toLowerCase()] = decodeURIComponent(entry.slice(separator + 1).trim());
    } catch {
      throw new Error(`${variable} has a value that is not valid percent-encoding (key "${key}")`);
    }
  }
  return headers;
}

/** The samplers of the SDK specification; the default is `parentbased_always_on`. */
function readSampler(name: string | undefined, argument: string | undefined): TraceSamplerSetting {
  const sampler = nonEmpty(name)?.toLowerCase() ?? 'parentbased_always_on';
  const parentBased = sampler.startsWith('parentbased_');
  switch (parentBased ? sampler.slice('parentbased_'.length) : sampler) {
    case 'always_on':
      return { ratio: 1, parentBased };
    case 'always_off':
      return { ratio: 0, parentBased };
    case 'traceidratio':
      return { ratio: readRatio(argument), parentBased };
    default:
      throw new Error(
        `OTEL_TRACES_SAMPLER must be always_on, always_off, traceidratio or parentbased_ one of them, got "${name}"`,
      );
  }
}

function readRatio(argument: string | undefined): number {
  const raw = nonEmpty(argument);
  if (raw === undefined) return 1;
  const ratio = Number(raw);
  if (!Number.isFinite(ratio) || ratio < 0 || ratio > 1)
    throw new Error(`OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1, got "${raw}"`);
  return ratio;
}

function readPositiveInteger(raw: string | undefined, fallback: number): number {
  const text = nonEmpty(raw);
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0)
    throw new Error(`OTEL_METRIC_EXPORT_INTERVAL must be a positive integer (milliseconds), got "${text}"`);
  return value;
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}
