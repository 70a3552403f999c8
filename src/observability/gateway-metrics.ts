import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { InFlightCounts } from './in-flight-counts.js';
import { RefusalCounts, refusalReasons } from './refusal-counts.js';

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
  /** refusals before any vendor call, by reason; read into `gateway_refusals_total` at each scrape */
  refusals: RefusalCounts;
  /** requests in flight and open connections by route group; read into gauges at each scrape */
  inFlight: InFlightCounts;
}

/** A fresh registry per app, so tests and several apps in one process do not share counters. */
export function createGatewayMetrics(): GatewayMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const refusals = new RefusalCounts();
  const inFlight = new InFlightCounts();
  registerRefusalCounter(registry, refusals);
  registerInFlightGauges(registry, inFlight);
  return {
    refusals,
    inFlight,
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

/** `gateway_refusals_total{reason}`: every reason from 0, so a rate over any of them works from the first scrape. */
function registerRefusalCounter(registry: Registry, refusals: RefusalCounts): void {
  new Counter({
    name: 'gateway_refusals_total',
    help: 'Requests the gateway refused before any vendor call, by reason',
    labelNames: ['reason'],
    registers: [registry],
    collect() {
      // Rebuilt from the counts, which only go up.
      this.reset();
      for (const reason of refusalReasons) this.inc({ reason }, refusals.of(reason));
    },
  });
}

/** `gateway_in_flight_requests{route_group}` and `gateway_open_connections{route_group}`. */
function registerInFlightGauges(registry: Registry, inFlight: InFlightCounts): void {
  new Gauge({
    name: 'gateway_in_flight_requests',
    help: 'Requests whose response has not ended, by route group',
    labelNames: ['route_group'],
    registers: [registry],
    collect() {
      for (const [group, count] of inFlight.requests) this.set({ route_group: group }, count);
    },
  });
  new Gauge({
    name: 'gateway_open_connections',
    help: 'Open client connections, by the route group of the request each carries now or carried last (none before its first)',
    labelNames: ['route_group'],
    registers: [registry],
    collect() {
      for (const [group, count] of inFlight.connections) this.set({ route_group: group }, count);
    },
  });
}
