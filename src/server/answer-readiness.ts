import type { FastifyReply } from 'fastify';
import { GatewayError } from '../core/gateway-error.js';
import type { StoreReadinessProbe } from '../observability/store-readiness-probe.js';

/** What `/readyz` knows of the node besides its stores. */
export interface NodeReadiness {
  /** true once the app began closing (a graceful shutdown): the load balancer must stop sending requests */
  shuttingDown: boolean;
  /** true once the routing table (keys, groups, channels) was loaded from the database */
  routingLoaded: boolean;
}

/**
 * `/readyz`: 200 `{"status":"ready","routing":"loaded", <store>: "up"}` while the routing table is loaded, the node is
 * not shutting down and every store it needs answers; otherwise 503 with OpenAI's error body, `Retry-After`, a
 * `status` (`shutting_down`, else `unavailable`), `routing` (`loaded` or `missing`) and each store's state, e.g.
 * `"database":"down"`. Without a probe (an app built with no stores) the stores count as up. While shutting down the
 * stores are not checked, and the answer closes its connection.
 */
export async function answerReadiness(
  reply: FastifyReply,
  probe: StoreReadinessProbe | undefined,
  node: NodeReadiness,
): Promise<Record<string, unknown>> {
  const routing = node.routingLoaded ? 'loaded' : 'missing';
  if (node.shuttingDown) {
    const error = new GatewayError('service_unavailable', 'This node is shutting down; send requests to another one.');
    void reply.code(error.status).header('retry-after', '1').header('connection', 'close');
    return { ...error.toBody(), status: 'shutting_down', routing };
  }
  const report = probe ? await probe.report() : { ready: true, stores: {} };
  if (report.ready && node.routingLoaded) return { status: 'ready', routing, ...report.stores };
  const missing = Object.entries(report.stores)
    .filter(([, state]) => state === 'down')
    .map(([name]) => name);
  if (!node.routingLoaded) missing.push('routing table');
  const error = new GatewayError(
    'service_unavailable',
    `This node cannot serve requests that need its ${missing.join(' and ')}; retry in a moment.`,
  );
  void reply.code(error.status).header('retry-after', '1');
  return { ...error.toBody(), status: 'unavailable', routing, ...report.stores };
}
