import type { FastifyReply } from 'fastify';
import { GatewayError } from '../core/gateway-error.js';
import type { StoreReadinessProbe } from '../observability/store-readiness-probe.js';

/**
 * `/readyz`: 200 `{"status":"ready", <store>: "up"}` while every store this node needs answers; otherwise 503 with
 * OpenAI's error body, `Retry-After`, `"status":"unavailable"` and each store's state, e.g. `"database":"down"`.
 * Without a probe (an app built with no stores) the node is ready.
 */
export async function answerReadiness(
  reply: FastifyReply,
  probe: StoreReadinessProbe | undefined,
): Promise<Record<string, unknown>> {
  const report = probe ? await probe.report() : { ready: true, stores: {} };
  if (report.ready) return { status: 'ready', ...report.stores };
  const down = Object.entries(report.stores)
    .filter(([, state]) => state === 'down')
    .map(([name]) => name);
  const error = new GatewayError(
    'service_unavailable',
    `This node cannot serve requests that need its ${down.join(' and ')}; retry in a moment.`,
  );
  void reply.code(error.status).header('retry-after', '1');
  return { ...error.toBody(), status: 'unavailable', ...report.stores };
}
