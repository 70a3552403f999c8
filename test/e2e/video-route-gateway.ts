// A second HTTP app over a test gateway's store and routing, built with a video task service of the test's choosing
// (or none), so the video routes can be tested before and apart from the real task layer.
import type { FastifyInstance } from 'fastify';
import { Agent } from 'undici';
import { createLogger } from '../../src/observability/create-logger.js';
import { createGatewayMetrics } from '../../src/observability/gateway-metrics.js';
import { createRemoteImageFetcher } from '../../src/providers/remote-image/create-remote-image-fetcher.js';
import { createChannelHealthService } from '../../src/routing/channel-health/channel-health-service.js';
import { defaultChannelHealthSettings } from '../../src/config/channel-health-settings.js';
import { createGatewayApp } from '../../src/server/create-gateway-app.js';
import { createUnmeteredAccounting } from '../../src/billing/request-accounting.js';
import type { VideoTaskService } from '../../src/tasks/video-task-service.js';
import type { TestGateway } from '../helpers/start-test-gateway.js';

/** A listening app: `url` for raw requests, `baseURL` for SDK clients. */
export interface VideoRouteGateway {
  url: string;
  baseURL: string;
  app: FastifyInstance;
  close(): Promise<void>;
}

/** Starts an app over `gateway`'s keys and channels with `videoTasks` (absent: the routes answer 503) and `clock`. */
export async function startVideoRouteGateway(
  gateway: TestGateway,
  options: { videoTasks?: VideoTaskService; clock: () => number },
): Promise<VideoRouteGateway> {
  const dispatcher = new Agent();
  const remoteImageFetcher = createRemoteImageFetcher({
    isAddressAllowed: () => false,
    maxBytes: 1024,
    timeoutMs: 1000,
  });
  const app = await createGatewayApp({
    config: gateway.config,
    routing: gateway.running.routing,
    dispatcher,
    remoteImageFetcher,
    logger: createLogger(gateway.config.logLevel),
    metrics: createGatewayMetrics(),
    accounting: createUnmeteredAccounting(),
    clock: options.clock,
    channelHealth: createChannelHealthService(defaultChannelHealthSettings, options.clock),
    ...(options.videoTasks ? { videoTasks: options.videoTasks } : {}),
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url: address,
    baseURL: `${address}/v1`,
    app,
    async close() {
      app.server.closeAllConnections();
      await app.close();
      await dispatcher.close();
      await remoteImageFetcher.close();
    },
  };
}
