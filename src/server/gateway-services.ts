import type { TwoFactorServices } from '../accounts/two-factor-services.js';
import type { Logger } from 'pino';
import type { SignInServices } from '../accounts/sign-in-services.js';
import type { Dispatcher } from 'undici';
import type { GatewayConfig } from '../config/gateway-config.js';
import type { RemoteImageFetcher } from '../providers/remote-image/remote-image.js';
import type { GatewayMetrics } from '../observability/gateway-metrics.js';
import type { BillingRuntime } from '../billing/billing-runtime.js';
import type { TopupService } from '../accounts/payments/topup-service.js';
import type { RoutingCache } from '../routing/routing-cache.js';
import type { ChannelHealthService } from '../routing/channel-health/channel-health-service.js';
import type { GatewayStore } from '../storage/gateway-store.js';
import type { AccountAdminStore } from '../storage/account-admin-store.js';
import type { FirstRunSetup } from '../accounts/first-run-setup.js';
import type { InFlightForwardings } from './in-flight-forwardings.js';
import type { ShutdownState } from './shutdown-state.js';
import type { RequestAccounting } from '../billing/request-accounting.js';
import type { ReasoningSealer } from '../protocols/shared/reasoning-sealer.js';
import type { ResponsesStore } from '../storage/responses-store.js';
import type { MessageThreadStore } from '../storage/message-thread-store.js';
import type { VideoTaskService } from '../tasks/video-task-service.js';
import type { RequestBodyLog } from '../billing/request-body-log.js';
import type { Telemetry } from '../observability/telemetry/start-telemetry.js';
import type { DispatchObserver } from '../dispatch/dispatch-observer.js';

/** What the HTTP app needs from the outside; tests and benchmarks build it with real or loopback parts. */
export interface GatewayServices {
  config: GatewayConfig;
  routing: RoutingCache;
  /** connection pools to upstreams */
  dispatcher: Dispatcher;
  /** fetches image URLs for vendors that take image bytes only; its own pool, every connection address-checked */
  remoteImageFetcher: RemoteImageFetcher;
  logger: Logger;
  metrics: GatewayMetrics;
  /** holds, settlement, rate limits and usage logs */
  accounting: RequestAccounting;
  /** Unix milliseconds */
  clock: () => number;
  /** circuit breakers per (channel, model), shared by dispatch, `/metrics` and the channels API */
  channelHealth: ChannelHealthService;
  /** what the /api routes (console JSON API) work with; absent when an app is built for /v1 only */
  api?: ApiServices;
  /** stored responses and the reasoning sealer behind /v1/responses; the routes are absent without them */
  responses?: ResponsesServices;
  /** message threads `/v1/messages` holds (`thread` create/continue); absent: a `thread` is answered `thread_unsupported_request` */
  messageThreads?: MessageThreadServices;
  /** the requests being forwarded, so a graceful shutdown settles every one; absent in apps built without a shutdown */
  inFlight?: InFlightForwardings;
  /** asynchronous video tasks behind both video surfaces; absent: those routes answer 503 `service_unavailable` */
  videoTasks?: VideoTaskService;
  /** keeps non-streamed JSON request and answer bodies when GATEWAY_REQUEST_BODY_LOG=on; absent (the default): none kept */
  requestBodyLog?: RequestBodyLog;
  /** set when a graceful shutdown begins, so `/readyz` answers 503 before the app closes; absent: from the app's closing */
  shutdown?: ShutdownState;
  /** OpenTelemetry: the request spans (when tracing is on) and the GenAI metrics on /metrics; absent: neither */
  telemetry?: Telemetry;
  /** the upstream attempts' spans and metrics (createTelemetryDispatchObserver over `telemetry`); absent: none */
  observer?: DispatchObserver;
}

/** Stores and billing state behind the /api routes. */
export interface ApiServices {
  gatewayStore: GatewayStore;
  billing: BillingRuntime;
  /** redemption codes, user status, the first-admin check */
  accountAdmin: AccountAdminStore;
  /** the one-time first-run setup (closed once the database has an administrator) */
  setup: FirstRunSetup;
  /** top-up orders and payment providers; absent when the app is built without them */
  topup?: TopupService;
  /** identities, console sessions, admin tokens and the social sign-in providers */
  signIn: SignInServices;
  /** TOTP two-factor sign-in: secrets, recovery codes, pending second factors */
  twoFactor: TwoFactorServices;
}

/** What the Responses API routes keep and seal with. */
export interface ResponsesServices {
  store: ResponsesStore;
  /** seals vendor reasoning artefacts into `encrypted_content` with the gateway's secret (the accounts SecretBox) */
  sealer: ReasoningSealer;
}

/** Where `/v1/messages` holds its message threads, and for how long. */
export interface MessageThreadServices {
  store: MessageThreadStore;
  /** how long a thread is held after its last turn, in milliseconds */
  retentionMs: number;
}
