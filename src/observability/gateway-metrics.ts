import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Prometheus instruments served at `/metrics`. */
export interface GatewayMetrics {
  registry: Registry;
  /** finished /v1 requests by endpoint, model and HTTP status */
  requests: Counter<'endpoint' | 'status'>;
  /** whole-request latency in seconds by endpoint */
  requestDuration: Histogram<'endpoint'>;
  /** upstream failures by channel name and reason (HTTP status, `transport` or `stream`) */
  upstreamFailures: Counter<'channel' | 'reason'>;
  /** tokens reported by vendors, by direction */
  tokens: Counter<'direction'>;
}

/** A fresh registry per app, so tests and several apps in one process do not share counters. */
export function createGatewayMetrics(): GatewayMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    requests: new Counter({
      name: 'gateway_requests_total',
      help: 'Finished /v1 requests',
      labelNames: ['endpoint', 'status'],
      registers: [registry],
    }),
    requestDuration: new Histogram({
      name: 'gateway_request_duration_seconds',
      help: 'Time from request to the end of the response',
      labelNames: ['endpoint'],
      buckets: [0.005, 0.025, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
      registers: [registry],
    }),
    upstreamFailures: new Counter({
      name: 'gateway_upstream_failures_total',
      help: 'Upstream attempts that failed',
      labelNames: ['channel', 'reason'],
      registers: [registry],
    }),
    tokens: new Counter({
      name: 'gateway_tokens_total',
      help: 'Tokens reported by vendors',
      labelNames: ['direction'],
      registers: [registry],
    }),
  };
}
