import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { Agent } from 'undici';
import { createSecretBox, resolveSecretPassphrase } from '../accounts/secret-box.js';
import type { GatewayConfig } from '../config/gateway-config.js';
import { createLogger } from '../observability/create-logger.js';
import { createGatewayMetrics } from '../observability/gateway-metrics.js';
import { createModelCatalog } from '../routing/model-catalog.js';
import { RoutingCache } from '../routing/routing-cache.js';
import { createGatewayApp } from '../server/create-gateway-app.js';
import { createUnmeteredAccounting } from '../server/request-accounting.js';
import type { GatewayStore } from '../storage/gateway-store.js';
import { createGatewayStore } from '../storage/kysely-gateway-store.js';

/** A running gateway and how to stop it. */
export interface RunningGateway {
  app: FastifyInstance;
  store: GatewayStore;
  routing: RoutingCache;
  /** the address it listens on, e.g. `http://127.0.0.1:3000` */
  url: string;
  /** stops accepting, lets in-flight requests finish, then closes pools and the database */
  close(): Promise<void>;
}

/** Opens the database (migrating it), loads the routing table and listens, as `gateway start` does. */
export async function startGateway(config: GatewayConfig, logger: Logger = createLogger(config.logLevel)): Promise<RunningGateway> {
  const store = createGatewayStore({ databaseUrl: config.databaseUrl });
  await store.migrate();
  const secretBox = createSecretBox(resolveSecretPassphrase(config));
  const routing = new RoutingCache({ store, catalog: createModelCatalog(), secretBox });
  await routing.refresh();
  routing.startPolling(config.refreshIntervalMs, (error) => logger.error({ err: error }, 'routing refresh failed'));

  const dispatcher = new Agent({ connections: config.upstreamConnectionsPerOrigin, keepAliveTimeout: 30_000, keepAliveMaxTimeout: 300_000 });
  const app = await createGatewayApp({ config, routing, dispatcher, logger, metrics: createGatewayMetrics(), accounting: createUnmeteredAccounting(), clock: Date.now });
  const address = await app.listen({ port: config.port, host: config.host });
  return {
    app,
    store,
    routing,
    url: address.replace('[::1]', '127.0.0.1').replace('0.0.0.0', '127.0.0.1'),
    async close() {
      routing.stop();
      await app.close();
      await dispatcher.close();
      await store.close();
    },
  };
}
