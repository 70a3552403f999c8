import { createRequire } from 'node:module';
import type { Redis as RedisClient } from 'ioredis';
import type { Logger } from 'pino';

/** How every Redis client of the gateway bounds its calls. */
export interface RedisClientOptions {
  /** milliseconds one command may wait for its answer (a frozen or partitioned server), GATEWAY_REDIS_COMMAND_TIMEOUT_MS */
  commandTimeoutMs: number;
  /** milliseconds to open the connection, GATEWAY_REDIS_CONNECT_TIMEOUT_MS */
  connectTimeoutMs: number;
  /** where connection errors go: the first, then at most one per 10 s with the count of those left out */
  logger: Logger;
  /** names the client in its log lines, e.g. `commands` or `subscriber` */
  role: string;
}

/** Reconnections that fail in a row before a command waiting for one fails (commands never wait while offline). */
const retriesPerRequest = 1;
/** Longest pause between reconnection attempts, in milliseconds: a returning server is used again this soon. */
const maximumReconnectDelayMs = 1_000;
const errorReportGapMs = 10_000;

/**
 * Opens a Redis client (ioredis, loaded only when Redis is configured, so a single node never pays its memory) whose
 * every command fails within `commandTimeoutMs` instead of waiting for a frozen server, that fails commands at once
 * while disconnected (no offline queue: the caller answers 503 or falls back) and reconnects by itself. The client
 * connects lazily: await `connect()` before the first command.
 */
export function createRedisClient(url: string, options: RedisClientOptions): RedisClient {
  const { Redis } = createRequire(import.meta.url)('ioredis') as typeof import('ioredis');
  const client = new Redis(url, {
    lazyConnect: true,
    commandTimeout: options.commandTimeoutMs,
    connectTimeout: options.connectTimeoutMs,
    maxRetriesPerRequest: retriesPerRequest,
    enableOfflineQueue: false,
    // A command cut off by a lost connection fails (the caller answered 503 already) instead of running late.
    autoResendUnfulfilledCommands: false,
    retryStrategy: (attempt) => Math.min(attempt * 100, maximumReconnectDelayMs),
  });
  watchRedisErrors(client, options.logger, options.role);
  return client;
}

/** A client made with `duplicate()` (a subscriber) keeps the options; it needs its own error listener. */
export function watchRedisErrors(client: RedisClient, logger: Logger, role: string): void {
  let lastReportAt = Number.NEGATIVE_INFINITY;
  let leftOut = 0;
  client.on('error', (error: Error) => {
    const now = Date.now();
    if (now - lastReportAt < errorReportGapMs) {
      leftOut += 1;
      return;
    }
    lastReportAt = now;
    logger.warn(
      { err: error, role, errorsLeftOut: leftOut },
      'redis connection error; commands fail fast until it reconnects',
    );
    leftOut = 0;
  });
  client.on('ready', () => {
    // Only after an outage that was reported: the first connection is not news.
    if (lastReportAt === Number.NEGATIVE_INFINITY) return;
    logger.info({ role }, 'redis connection ready again');
    lastReportAt = Number.NEGATIVE_INFINITY;
  });
}
