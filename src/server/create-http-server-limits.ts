import type { ServerOptions } from 'node:http';
import type { GatewayConfig } from '../config/gateway-config.js';

/** The Node HTTP server settings that bound slow and idle clients, in the shape Fastify's factory takes them. */
export interface HttpServerLimits {
  /** milliseconds to receive a whole request; the response, a long stream included, is not bounded by it */
  requestTimeout: number;
  /** milliseconds an idle keep-alive connection stays open */
  keepAliveTimeout: number;
  /** options for `http.createServer` */
  http: ServerOptions;
}

/**
 * Request and header timeouts from the configuration. Node checks them on a timer (every 30 s by default);
 * checking four times per shortest timeout keeps a deadline close to what is configured. A missing Host header
 * is left to the gateway, since Node would answer it with an empty 400 that is not in OpenAI's shape.
 */
export function createHttpServerLimits(config: GatewayConfig): HttpServerLimits {
  const headersTimeout =
    config.requestTimeoutMs > 0 && config.headersTimeoutMs > 0
      ? Math.min(config.headersTimeoutMs, config.requestTimeoutMs)
      : config.headersTimeoutMs;
  const enforced = [headersTimeout, config.requestTimeoutMs].filter((milliseconds) => milliseconds > 0);
  const connectionsCheckingInterval =
    enforced.length === 0 ? 30_000 : Math.min(5_000, Math.max(100, Math.floor(Math.min(...enforced) / 4)));
  return {
    requestTimeout: config.requestTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    http: {
      requestTimeout: config.requestTimeoutMs,
      headersTimeout,
      keepAliveTimeout: config.keepAliveTimeoutMs,
      connectionsCheckingInterval,
      requireHostHeader: false,
    },
  };
}
