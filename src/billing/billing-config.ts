import type { RequestLimits } from '../storage/billing-records.js';

/** How money and limits behave; docs/CONFIGURATION.md describes each variable. */
export interface BillingConfig {
  /** false admits every request and records nothing (GATEWAY_BILLING=off) */
  enabled: boolean;
  /** Redis URL for shared rate-limit counters across nodes, or undefined for in-memory counters */
  redisUrl: string | undefined;
  /** milliseconds a Redis command may wait for its answer before it fails (GATEWAY_REDIS_COMMAND_TIMEOUT_MS) */
  redisCommandTimeoutMs: number;
  /** milliseconds to open a Redis connection (GATEWAY_REDIS_CONNECT_TIMEOUT_MS) */
  redisConnectTimeoutMs: number;
  /** most milliseconds a settled request waits in memory before its batch is written */
  flushIntervalMs: number;
  /** milliseconds between full reloads of balances even when the billing revision did not move (several nodes) */
  reloadIntervalMs: number;
  /** milliseconds between rewrites of this node's share of the Redis wallet from its books; 0 turns them off (GATEWAY_WALLET_RECONCILE_INTERVAL_MS) */
  walletReconcileIntervalMs: number;
  /** output tokens held when neither the request nor the catalog caps them */
  defaultMaxOutputTokens: number;
  /** settled requests waiting to be written at most; beyond it new requests get 503 (GATEWAY_SETTLEMENT_QUEUE_LIMIT) */
  settlementQueueLimit: number;
  /** days usage logs, refused-request counts and hourly rollups are kept (daily rollups forever); 0 keeps them forever */
  usageLogRetentionDays: number;
  /** most rows one retention statement deletes (GATEWAY_RETENTION_BATCH_ROWS) */
  retentionBatchRows: number;
  /** most rows one hourly retention sweep deletes per table; the next sweep goes on from there (GATEWAY_RETENTION_MAX_ROWS_PER_RUN) */
  retentionMaxRowsPerRun: number;
  /** the optional log of request and response bodies (GATEWAY_REQUEST_BODY_LOG_*) */
  requestBodyLog: RequestBodyLogConfig;
  /** hours a console session lasts */
  sessionLifetimeHours: number;
  /** most rows one CSV export of the usage logs returns (GATEWAY_USAGE_EXPORT_MAX_ROWS) */
  usageExportMaxRows: number;
  /** limits of a key whose own columns are null; 0 means unlimited */
  keyLimits: RequestLimits;
  /** limits of a user whose own columns are null; 0 means unlimited */
  userLimits: RequestLimits;
}

/** Whether, and how much of, request and response bodies are kept; they hold users' content (docs/OPERATIONS.md). */
export interface RequestBodyLogConfig {
  /** true keeps bodies of non-streamed JSON requests and their answers (GATEWAY_REQUEST_BODY_LOG=on; default off) */
  enabled: boolean;
  /** bytes of each body kept at most; a longer one is cut there and marked truncated (GATEWAY_REQUEST_BODY_LOG_MAX_BYTES) */
  maxBytes: number;
  /** days bodies are kept (GATEWAY_REQUEST_BODY_LOG_RETENTION_DAYS); 0 keeps them forever */
  retentionDays: number;
}

/** Reads the billing configuration from environment variables, with the documented defaults. */
export function loadBillingConfig(environment: NodeJS.ProcessEnv = process.env): BillingConfig {
  const switchValue = (environment.GATEWAY_BILLING ?? 'on').toLowerCase();
  if (!['on', 'off', 'true', 'false', '1', '0'].includes(switchValue))
    throw new Error(`GATEWAY_BILLING must be on or off, got "${switchValue}"`);
  return {
    enabled: ['on', 'true', '1'].includes(switchValue),
    redisUrl: environment.GATEWAY_REDIS_URL || undefined,
    redisCommandTimeoutMs: readInteger(environment, 'GATEWAY_REDIS_COMMAND_TIMEOUT_MS', 500) || 500,
    redisConnectTimeoutMs: readInteger(environment, 'GATEWAY_REDIS_CONNECT_TIMEOUT_MS', 2_000) || 2_000,
    flushIntervalMs: Math.min(readInteger(environment, 'GATEWAY_BILLING_FLUSH_INTERVAL_MS', 250), 250) || 250,
    reloadIntervalMs: readInteger(environment, 'GATEWAY_BILLING_RELOAD_INTERVAL_MS', 10_000),
    walletReconcileIntervalMs: readInteger(environment, 'GATEWAY_WALLET_RECONCILE_INTERVAL_MS', 5_000),
    defaultMaxOutputTokens: readInteger(environment, 'GATEWAY_DEFAULT_MAX_OUTPUT_TOKENS', 4_096) || 4_096,
    settlementQueueLimit: readInteger(environment, 'GATEWAY_SETTLEMENT_QUEUE_LIMIT', 100_000) || 100_000,
    usageLogRetentionDays: readInteger(environment, 'GATEWAY_USAGE_LOG_RETENTION_DAYS', 90),
    retentionBatchRows: readInteger(environment, 'GATEWAY_RETENTION_BATCH_ROWS', 2_000) || 2_000,
    retentionMaxRowsPerRun: readInteger(environment, 'GATEWAY_RETENTION_MAX_ROWS_PER_RUN', 500_000) || 500_000,
    requestBodyLog: {
      enabled: readSwitch(environment, 'GATEWAY_REQUEST_BODY_LOG', false),
      maxBytes: readInteger(environment, 'GATEWAY_REQUEST_BODY_LOG_MAX_BYTES', 65_536) || 65_536,
      retentionDays: readInteger(environment, 'GATEWAY_REQUEST_BODY_LOG_RETENTION_DAYS', 7),
    },
    sessionLifetimeHours: readInteger(environment, 'GATEWAY_SESSION_LIFETIME_HOURS', 168) || 168,
    usageExportMaxRows: readInteger(environment, 'GATEWAY_USAGE_EXPORT_MAX_ROWS', 100_000) || 100_000,
    keyLimits: {
      requestsPerMinute: readInteger(environment, 'GATEWAY_KEY_REQUESTS_PER_MINUTE', 0),
      tokensPerMinute: readInteger(environment, 'GATEWAY_KEY_TOKENS_PER_MINUTE', 0),
      maxConcurrentRequests: readInteger(environment, 'GATEWAY_KEY_MAX_CONCURRENT_REQUESTS', 0),
    },
    userLimits: {
      requestsPerMinute: readInteger(environment, 'GATEWAY_USER_REQUESTS_PER_MINUTE', 0),
      tokensPerMinute: readInteger(environment, 'GATEWAY_USER_TOKENS_PER_MINUTE', 0),
      maxConcurrentRequests: readInteger(environment, 'GATEWAY_USER_MAX_CONCURRENT_REQUESTS', 0),
    },
  };
}

function readInteger(environment: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = environment[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

function readSwitch(environment: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = (environment[name] ?? '').toLowerCase();
  if (raw === '') return fallback;
  if (['on', 'true', '1'].includes(raw)) return true;
  if (['off', 'false', '0'].includes(raw)) return false;
  throw new Error(`${name} must be on or off, got "${raw}"`);
}
