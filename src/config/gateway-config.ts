import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSignInConfig, type SignInConfig } from './sign-in-config.js';
import { defaultChannelHealthSettings, type ChannelHealthSettings } from './channel-health-settings.js';
import { readSignUpPolicy, type SignUpPolicy } from './sign-up-config.js';
import { readTrustProxySetting, type TrustProxySetting } from './trust-proxy-setting.js';
import { readLogFormat, type LogFormatSetting } from './read-log-format.js';
import { readTelemetrySettings, type TelemetrySettings } from './telemetry-settings.js';

/** Everything the gateway reads from its environment; docs/CONFIGURATION.md describes each variable. */
export interface GatewayConfig {
  /** TCP port the HTTP server listens on */
  port: number;
  /** interface the HTTP server binds */
  host: string;
  /** folder for the SQLite database and the generated secret key */
  dataDirectory: string;
  /** `sqlite:<file>` or `postgres://...` */
  databaseUrl: string;
  /** secret used to encrypt channel secrets at rest; when absent a key file in dataDirectory is used */
  secretKey: string | undefined;
  /** GATEWAY_PREVIOUS_SECRET_KEY: the key channel secrets were sealed with before `secretKey`; start seals them again */
  previousSecretKey?: string | undefined;
  /** pino level: fatal, error, warn, info, debug, trace, silent */
  logLevel: string;
  /** GATEWAY_LOG_FORMAT: `pretty` coloured lines, `json` lines, or `auto` (pretty when stdout is a terminal); absent: auto */
  logFormat?: LogFormatSetting;
  /** largest JSON request body, in bytes */
  bodyLimitBytes: number;
  /** largest uploaded file in a multipart request, in bytes */
  uploadLimitBytes: number;
  /** how long to wait for upstream response headers, in milliseconds */
  upstreamHeadersTimeoutMs: number;
  /** longest silence allowed between two upstream body chunks, in milliseconds */
  upstreamBodyTimeoutMs: number;
  /** largest vendor answer body read, in bytes; a larger one is cut off and answered 502 (`GATEWAY_UPSTREAM_MAX_BODY_BYTES`) */
  upstreamMaxBodyBytes: number;
  /** longest a non-streamed vendor answer may take, from its request sent to its whole body read, in milliseconds; then 504 (0 = no limit; `GATEWAY_UPSTREAM_ANSWER_TIMEOUT_MS`) */
  upstreamAnswerTimeoutMs: number;
  /** how often a running gateway checks the database for changed keys, groups and channels, in milliseconds */
  refreshIntervalMs: number;
  /** keep-alive connections per upstream origin */
  upstreamConnectionsPerOrigin: number;
  /** JSON file of catalog entries that change or extend the built-in model catalog */
  modelCatalogFile: string | undefined;
  /** on shutdown, how long in-flight requests may finish before remaining connections are closed, in milliseconds */
  shutdownGraceMs: number;
  /** on shutdown, how long `/readyz` answers 503 while requests are still served, before the server stops accepting, in milliseconds (`GATEWAY_SHUTDOWN_READINESS_DELAY_MS`; absent: 0) */
  shutdownReadinessDelayMs?: number;
  /** streams read on at once per node after their client left, to bill the vendor's usage (0 = none: cut, charged the hold; `GATEWAY_ABANDONED_STREAM_DRAINS`) */
  abandonedStreamDrains: number;
  /** the most bytes of one stream read after its client left; past it the stream is cut and charged its hold (`GATEWAY_ABANDONED_STREAM_DRAIN_MAX_BYTES`) */
  abandonedStreamDrainMaxBytes: number;
  /** whether image URLs may point at loopback, private, link-local and other non-public addresses (off: public only) */
  imageFetchAllowPrivateAddresses: boolean;
  /** largest image fetched from an image URL, in bytes */
  imageFetchMaxBytes: number;
  /** longest one image URL fetch may take, redirects included, in milliseconds */
  imageFetchTimeoutMs: number;
  /**
   * names of the model groups every new user is granted; names that name no group at creation are skipped.
   * Optional so configurations built in code need not list it; absent means `defaultUserGroupNames`.
   */
  defaultUserGroups?: string[];
  /** longest a client may take to send a whole request (headers and body), in milliseconds; 0 = no limit; a response already started is not bounded by it */
  requestTimeoutMs: number;
  /** longest a client may take to send the request line and headers, in milliseconds (at most requestTimeoutMs) */
  headersTimeoutMs: number;
  /** how long an idle keep-alive connection stays open between requests, in milliseconds */
  keepAliveTimeoutMs: number;
  /** most connections one client address may hold open at once; 0 = no cap */
  maxConnectionsPerAddress: number;
  /** most requests the process serves at once, counted once authenticated and their JSON body read; beyond it 503 with Retry-After; 0 = no cap */
  maxInFlightRequests: number;
  /** most requests one client address may have in flight at once, counted from their first byte; beyond it 429 with Retry-After; 0 = no cap */
  maxInFlightPerAddress: number;
  /** most /v1 requests one user may have in flight at once on this node, counted like maxInFlightRequests; beyond it 429 with Retry-After; 0 = no cap */
  maxInFlightPerUser: number;
  /** most API keys a user may create for themselves; beyond it 400 (administrators are exempt); 0 = no cap */
  maxKeysPerUser: number;
  /** longest a request with no API key or session (sign-in, setup, webhooks) may take to send its body, in milliseconds; then 408; 0 = no limit */
  unauthenticatedBodyTimeoutMs: number;
  /** most bytes one request may make the gateway decompress (PDF object streams counted for holds), in bytes */
  decompressionBudgetBytes: number;
  /** largest body of `POST /v1/messages/count_tokens`, in bytes */
  countTokensBodyLimitBytes: number;
  /** longest a streamed answer waits for a client that stopped reading, in milliseconds; then the stream is cut; 0 = forever */
  streamWriteTimeoutMs: number;
  /** public origin and social sign-in providers (GATEWAY_PUBLIC_URL, GATEWAY_GITHUB_*, GATEWAY_OIDC_*); absent means none configured */
  signIn?: SignInConfig;
  /** who may create an account by a first social sign-in (GATEWAY_SIGNUP, GATEWAY_SIGNUP_EMAIL_DOMAINS); absent means `open` */
  signUp?: SignUpPolicy;
  /** reverse proxies whose X-Forwarded-For names the client for every per-address limit (GATEWAY_TRUST_PROXY); absent means none */
  trustProxy?: TrustProxySetting;
  /** traces and metrics by OpenTelemetry (OTEL_* and GATEWAY_OTEL_*); absent: no OTLP export, GenAI metrics on /metrics only */
  telemetry?: TelemetrySettings;
  /** folder of the built web console served at `/` (GATEWAY_CONSOLE_DIR); absent or without index.html: `/` says it is not built */
  consoleDirectory?: string;
  /** channel circuit breakers (GATEWAY_CHANNEL_BREAKER*); absent means `defaultChannelHealthSettings` */
  channelHealth?: ChannelHealthSettings;
  /** video tasks (GATEWAY_VIDEO_*); absent means the defaults of `loadVideoTaskConfig` */
  videoTasks?: VideoTaskConfig;
  /** hours a message thread is held after its last turn (GATEWAY_MESSAGE_THREAD_RETENTION_HOURS; 0 = threads off); absent means `defaultMessageThreadRetentionHours` */
  messageThreadRetentionHours?: number;
}

/** How long a message thread is held after its last turn when GATEWAY_MESSAGE_THREAD_RETENTION_HOURS is unset: 30 days. */
export const defaultMessageThreadRetentionHours = 720;

/** Video task settings (docs/CONFIGURATION.md, Video tasks). */
export interface VideoTaskConfig {
  /** folder for finished videos (GATEWAY_VIDEO_STORAGE_DIR; default `<data directory>/videos`) */
  storageDirectory: string;
  /** minutes after which an unfinished task is cancelled and fails with `task_timeout` (GATEWAY_VIDEO_TASK_TIMEOUT_MINUTES, default 60) */
  timeoutMinutes: number;
  /** hours a task and its video are kept after creation (GATEWAY_VIDEO_RETENTION_HOURS, default 24) */
  retentionHours: number;
  /** how often the poller looks for due tasks, in milliseconds (GATEWAY_VIDEO_POLL_INTERVAL_MS, default 1000) */
  pollIntervalMs: number;
  /** how long a poller owns a claimed task before another gateway may take it, in milliseconds (GATEWAY_VIDEO_LEASE_MS, default 300000) */
  leaseMs: number;
  /** largest video downloaded and stored, in bytes (GATEWAY_VIDEO_MAX_BYTES, default 2 GiB); a larger one fails `video_too_large` */
  maxBytes: number;
}

/** Where `npm run build:console` writes the console: `dist/console` of this package (from src/ or dist/ alike). */
export const defaultConsoleDirectory = fileURLToPath(new URL('../../dist/console', import.meta.url));

/** The groups new users get when GATEWAY_DEFAULT_USER_GROUPS is unset. */
export const defaultUserGroupNames: readonly string[] = ['default'];

/** A quarter of the process's in-flight cap (at least one), so no single user can fill it; none without a cap. */
export function defaultInFlightPerUser(maxInFlightRequests: number): number {
  return maxInFlightRequests <= 0 ? 0 : Math.max(1, Math.floor(maxInFlightRequests / 4));
}

/** Reads the configuration from environment variables, with the documented defaults. */
export function loadGatewayConfig(environment: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const dataDirectory = path.resolve(environment.GATEWAY_DATA_DIR ?? './data');
  return {
    port: readInteger(environment, 'GATEWAY_PORT', 3000),
    host: environment.GATEWAY_HOST ?? '0.0.0.0',
    dataDirectory,
    databaseUrl: environment.GATEWAY_DATABASE_URL ?? `sqlite:${path.join(dataDirectory, 'gateway.db')}`,
    secretKey: environment.GATEWAY_SECRET_KEY || undefined,
    previousSecretKey: environment.GATEWAY_PREVIOUS_SECRET_KEY || undefined,
    logLevel: environment.GATEWAY_LOG_LEVEL ?? 'info',
    logFormat: readLogFormat(environment),
    bodyLimitBytes: readInteger(environment, 'GATEWAY_BODY_LIMIT_BYTES', 16 * 1024 * 1024),
    uploadLimitBytes: readInteger(environment, 'GATEWAY_UPLOAD_LIMIT_BYTES', 25 * 1024 * 1024),
    upstreamHeadersTimeoutMs: readInteger(environment, 'GATEWAY_UPSTREAM_HEADERS_TIMEOUT_MS', 300_000),
    upstreamBodyTimeoutMs: readInteger(environment, 'GATEWAY_UPSTREAM_BODY_TIMEOUT_MS', 300_000),
    upstreamMaxBodyBytes: readInteger(environment, 'GATEWAY_UPSTREAM_MAX_BODY_BYTES', 64 * 1024 * 1024),
    upstreamAnswerTimeoutMs: readInteger(environment, 'GATEWAY_UPSTREAM_ANSWER_TIMEOUT_MS', 300_000),
    refreshIntervalMs: readInteger(environment, 'GATEWAY_REFRESH_INTERVAL_MS', 1_000),
    upstreamConnectionsPerOrigin: readInteger(environment, 'GATEWAY_UPSTREAM_CONNECTIONS', 256),
    modelCatalogFile: environment.GATEWAY_MODEL_CATALOG_FILE || undefined,
    shutdownGraceMs: readInteger(environment, 'GATEWAY_SHUTDOWN_GRACE_MS', 10_000),
    shutdownReadinessDelayMs: readInteger(environment, 'GATEWAY_SHUTDOWN_READINESS_DELAY_MS', 0),
    abandonedStreamDrains: readInteger(environment, 'GATEWAY_ABANDONED_STREAM_DRAINS', 64),
    abandonedStreamDrainMaxBytes: readInteger(
      environment,
      'GATEWAY_ABANDONED_STREAM_DRAIN_MAX_BYTES',
      32 * 1024 * 1024,
    ),
    imageFetchAllowPrivateAddresses: readSwitch(environment, 'GATEWAY_IMAGE_FETCH_ALLOW_PRIVATE_ADDRESSES', false),
    imageFetchMaxBytes: readInteger(environment, 'GATEWAY_IMAGE_FETCH_MAX_BYTES', 20 * 1024 * 1024),
    imageFetchTimeoutMs: readInteger(environment, 'GATEWAY_IMAGE_FETCH_TIMEOUT_MS', 10_000),
    defaultUserGroups: readList(environment, 'GATEWAY_DEFAULT_USER_GROUPS', defaultUserGroupNames),
    requestTimeoutMs: readInteger(environment, 'GATEWAY_REQUEST_TIMEOUT_MS', 300_000),
    headersTimeoutMs: readInteger(environment, 'GATEWAY_HEADERS_TIMEOUT_MS', 30_000),
    keepAliveTimeoutMs: readInteger(environment, 'GATEWAY_KEEP_ALIVE_TIMEOUT_MS', 72_000),
    maxConnectionsPerAddress: readInteger(environment, 'GATEWAY_MAX_CONNECTIONS_PER_ADDRESS', 1_024),
    maxInFlightRequests: readInteger(environment, 'GATEWAY_MAX_IN_FLIGHT_REQUESTS', 2_048),
    maxInFlightPerAddress: readInteger(environment, 'GATEWAY_MAX_IN_FLIGHT_PER_ADDRESS', 32),
    maxInFlightPerUser: readInteger(
      environment,
      'GATEWAY_MAX_IN_FLIGHT_PER_USER',
      defaultInFlightPerUser(readInteger(environment, 'GATEWAY_MAX_IN_FLIGHT_REQUESTS', 2_048)),
    ),
    maxKeysPerUser: readInteger(environment, 'GATEWAY_MAX_KEYS_PER_USER', 50),
    unauthenticatedBodyTimeoutMs: readInteger(environment, 'GATEWAY_UNAUTHENTICATED_BODY_TIMEOUT_MS', 10_000),
    decompressionBudgetBytes: readInteger(environment, 'GATEWAY_DECOMPRESSION_BUDGET_BYTES', 1024 * 1024),
    countTokensBodyLimitBytes: readInteger(environment, 'GATEWAY_COUNT_TOKENS_BODY_LIMIT_BYTES', 2 * 1024 * 1024),
    streamWriteTimeoutMs: readInteger(environment, 'GATEWAY_STREAM_WRITE_TIMEOUT_MS', 30_000),
    signIn: loadSignInConfig(environment),
    signUp: readSignUpPolicy(environment),
    trustProxy: readTrustProxySetting(environment),
    telemetry: readTelemetrySettings(environment),
    consoleDirectory: environment.GATEWAY_CONSOLE_DIR
      ? path.resolve(environment.GATEWAY_CONSOLE_DIR)
      : defaultConsoleDirectory,
    channelHealth: readChannelHealthSettings(environment),
    videoTasks: loadVideoTaskConfig(environment, dataDirectory),
    messageThreadRetentionHours: readInteger(
      environment,
      'GATEWAY_MESSAGE_THREAD_RETENTION_HOURS',
      defaultMessageThreadRetentionHours,
    ),
  };
}

/** Reads GATEWAY_VIDEO_* with the documented defaults. */
export function loadVideoTaskConfig(environment: NodeJS.ProcessEnv, dataDirectory: string): VideoTaskConfig {
  const config: VideoTaskConfig = {
    storageDirectory: path.resolve(environment.GATEWAY_VIDEO_STORAGE_DIR || path.join(dataDirectory, 'videos')),
    timeoutMinutes: readInteger(environment, 'GATEWAY_VIDEO_TASK_TIMEOUT_MINUTES', 60),
    retentionHours: readInteger(environment, 'GATEWAY_VIDEO_RETENTION_HOURS', 24),
    pollIntervalMs: readInteger(environment, 'GATEWAY_VIDEO_POLL_INTERVAL_MS', 1_000),
    leaseMs: readInteger(environment, 'GATEWAY_VIDEO_LEASE_MS', 300_000),
    maxBytes: readInteger(environment, 'GATEWAY_VIDEO_MAX_BYTES', 2 * 1024 * 1024 * 1024),
  };
  if (config.timeoutMinutes < 1) throw new Error('GATEWAY_VIDEO_TASK_TIMEOUT_MINUTES must be at least 1');
  if (config.retentionHours < 1) throw new Error('GATEWAY_VIDEO_RETENTION_HOURS must be at least 1');
  if (config.pollIntervalMs < 1) throw new Error('GATEWAY_VIDEO_POLL_INTERVAL_MS must be at least 1');
  if (config.leaseMs < 1_000) throw new Error('GATEWAY_VIDEO_LEASE_MS must be at least 1000');
  if (config.maxBytes < 1) throw new Error('GATEWAY_VIDEO_MAX_BYTES must be at least 1');
  return config;
}

/** Reads GATEWAY_CHANNEL_BREAKER* (docs/CONFIGURATION.md, Channel health); the memory bounds are not configurable. */
function readChannelHealthSettings(environment: NodeJS.ProcessEnv): ChannelHealthSettings {
  const defaults = defaultChannelHealthSettings;
  const settings: ChannelHealthSettings = {
    ...defaults,
    enabled: readSwitch(environment, 'GATEWAY_CHANNEL_BREAKER', defaults.enabled),
    consecutiveFailures: readInteger(
      environment,
      'GATEWAY_CHANNEL_BREAKER_CONSECUTIVE_FAILURES',
      defaults.consecutiveFailures,
    ),
    errorRatePercent: readInteger(environment, 'GATEWAY_CHANNEL_BREAKER_ERROR_RATE_PERCENT', defaults.errorRatePercent),
    errorRateWindowMs: readInteger(environment, 'GATEWAY_CHANNEL_BREAKER_WINDOW_MS', defaults.errorRateWindowMs),
    errorRateMinimumRequests: readInteger(
      environment,
      'GATEWAY_CHANNEL_BREAKER_MINIMUM_REQUESTS',
      defaults.errorRateMinimumRequests,
    ),
    coolDownMs: readInteger(environment, 'GATEWAY_CHANNEL_BREAKER_COOL_DOWN_MS', defaults.coolDownMs),
    maxCoolDownMs: readInteger(environment, 'GATEWAY_CHANNEL_BREAKER_MAX_COOL_DOWN_MS', defaults.maxCoolDownMs),
    halfOpenProbes: readInteger(environment, 'GATEWAY_CHANNEL_BREAKER_PROBES', defaults.halfOpenProbes),
    probeTimeoutMs: readInteger(environment, 'GATEWAY_CHANNEL_BREAKER_PROBE_TIMEOUT_MS', defaults.probeTimeoutMs),
    maxRetryAfterMs: readInteger(environment, 'GATEWAY_CHANNEL_BREAKER_MAX_RETRY_AFTER_MS', defaults.maxRetryAfterMs),
  };
  if (settings.errorRatePercent > 100)
    throw new Error(`GATEWAY_CHANNEL_BREAKER_ERROR_RATE_PERCENT must be at most 100, got ${settings.errorRatePercent}`);
  if (settings.halfOpenProbes < 1) throw new Error('GATEWAY_CHANNEL_BREAKER_PROBES must be at least 1');
  if (settings.errorRateWindowMs < 1) throw new Error('GATEWAY_CHANNEL_BREAKER_WINDOW_MS must be at least 1');
  if (settings.maxCoolDownMs < settings.coolDownMs)
    throw new Error('GATEWAY_CHANNEL_BREAKER_MAX_COOL_DOWN_MS must be at least GATEWAY_CHANNEL_BREAKER_COOL_DOWN_MS');
  return settings;
}

function readInteger(environment: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = environment[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

function readSwitch(environment: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = environment[name];
  if (raw === undefined || raw === '') return fallback;
  const value = raw.toLowerCase();
  if (['on', 'true', '1'].includes(value)) return true;
  if (['off', 'false', '0'].includes(value)) return false;
  throw new Error(`${name} must be on or off, got "${raw}"`);
}

// An empty value means "no default groups"; unset means the documented default.
function readList(environment: NodeJS.ProcessEnv, name: string, fallback: readonly string[]): string[] {
  const raw = environment[name];
  if (raw === undefined) return [...fallback];
  return raw
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}
