import type { FastifyInstance } from 'fastify';
import { registerStoreHealthMetrics } from '../observability/store-health-metrics.js';
import { StoreReadinessProbe } from '../observability/store-readiness-probe.js';
import { answerReadiness } from './answer-readiness.js';
import type { GatewayServices } from './gateway-services.js';
import { ShutdownState } from './shutdown-state.js';

/**
 * `/readyz` (answerReadiness): 503 while a store this node needs is down (a cached probe, at most one check per
 * second), before the routing table is loaded, and from the moment a graceful shutdown begins (`services.shutdown`,
 * or the app's closing). The same probe feeds
 * `gateway_store_up` and `gateway_store_last_check_age_seconds` on `/metrics`.
 */
export function registerReadinessRoute(app: FastifyInstance, services: GatewayServices): void {
  const probe = services.api ? new StoreReadinessProbe({ checks: services.api.billing.storeChecks() }) : undefined;
  // One registry may serve several apps built in one test process; the first app's probe feeds the gauges.
  if (probe && services.metrics.registry.getSingleMetric('gateway_store_up') === undefined)
    registerStoreHealthMetrics(services.metrics.registry, probe);
  const shutdown = services.shutdown ?? new ShutdownState();
  app.addHook('preClose', (done) => {
    shutdown.begin();
    done();
  });
  app.get('/readyz', async (_request, reply) =>
    answerReadiness(reply, probe, { shuttingDown: shutdown.shuttingDown, routingLoaded: services.routing.loaded }),
  );
}
