import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { Agent } from 'undici';
import type { SecretBox } from '../accounts/secret-box.js';
import type { GatewayConfig } from '../config/gateway-config.js';
import { createLogger } from '../observability/create-logger.js';
import { createGatewayMetrics } from '../observability/gateway-metrics.js';
import { registerChannelHealthMetrics } from '../routing/channel-health/register-channel-health-metrics.js';
import { registerSettlementMetrics } from '../observability/settlement-metrics.js';
import { registerWalletDriftMetrics } from '../observability/wallet-drift-metrics.js';
import { registerBillingMetrics } from '../observability/billing-metrics.js';
import { startTelemetry, type Telemetry } from '../observability/telemetry/start-telemetry.js';
import { createTelemetryDispatchObserver } from '../server/telemetry-dispatch-observer.js';
import type { DispatchObserver } from '../dispatch/dispatch-observer.js';
import { createChannelHealthService } from '../routing/channel-health/channel-health-service.js';
import { defaultChannelHealthSettings } from '../config/channel-health-settings.js';
import { createRemoteImageFetcher } from '../providers/remote-image/create-remote-image-fetcher.js';
import { isFetchableAddress } from '../providers/remote-image/is-fetchable-address.js';
import { modelCatalogData } from '../routing/model-catalog-data.js';
import { applyModelCatalogOverrides } from '../routing/apply-model-catalog-overrides.js';
import { RoutingCache } from '../routing/routing-cache.js';
import { createGatewayApp } from '../server/create-gateway-app.js';
import { InFlightForwardings } from '../server/in-flight-forwardings.js';
import { ShutdownState } from '../server/shutdown-state.js';
import type { GatewayServices } from '../server/gateway-services.js';
import { loadBillingConfig, type BillingConfig } from '../billing/billing-config.js';
import { BillingRuntime } from '../billing/billing-runtime.js';
import { createBillingAccounting } from '../billing/create-billing-accounting.js';
import { createUnmeteredAccounting } from '../billing/request-accounting.js';
import { createDatabase, sqliteFilePath } from '../storage/create-database.js';
import { createBillingStore } from '../storage/kysely-billing-store.js';
import { createRequestBodyStore } from '../storage/kysely-request-body-store.js';
import type { GatewayStore } from '../storage/gateway-store.js';
import { createGatewayStore } from '../storage/kysely-gateway-store.js';
import { createAccountAdminStore } from '../storage/kysely-account-admin-store.js';
import { FirstRunSetup } from '../accounts/first-run-setup.js';
import { createTopupOrderStore } from '../storage/kysely-topup-order-store.js';
import { createResponsesStore } from '../storage/kysely-responses-store.js';
import { createMessageThreadStore } from '../storage/kysely-message-thread-store.js';
import { defaultMessageThreadRetentionHours } from '../config/gateway-config.js';
import { createReasoningSealer } from '../protocols/shared/reasoning-sealer.js';
import { loadPaymentConfig, type PaymentConfig } from '../accounts/payments/payment-config.js';
import { createTopupService } from '../accounts/payments/create-topup-service.js';
import type { TopupService } from '../accounts/payments/topup-service.js';
import { createSignInStore } from '../storage/kysely-sign-in-store.js';
import { createTwoFactorStore } from '../storage/kysely-two-factor-store.js';
import { LoginAttemptLimiter } from '../accounts/login-attempt-limiter.js';
import { twoFactorIssuer } from '../accounts/two-factor-issuer.js';
import { createSignInServices, type SignInServices } from '../accounts/sign-in-services.js';
import { loadVideoTaskConfig } from '../config/gateway-config.js';
import type { VideoVendorAdapter } from '../providers/video/video-vendor-adapter.js';
import { startVideoTasks } from '../tasks/start-video-tasks.js';
import type { PollScheduler, VideoTaskPoller } from '../tasks/video-task-poller.js';
import { videoVendorAdapters } from '../providers/video/video-vendor-adapter-registry.js';
import { openVerifiedSecretBox } from './open-verified-secret-box.js';
import { secureDataFiles } from './secure-data-files.js';
import { writeSetupUrlFile } from './write-setup-url-file.js';
import type { VideoTaskService } from '../tasks/video-task-service.js';

/** A running gateway and how to stop it. */
export interface RunningGateway {
  app: FastifyInstance;
  store: GatewayStore;
  routing: RoutingCache;
  /** balances, holds, prices and the batch writer; `billing.changeBalance(...)` credits a user durably */
  billing: BillingRuntime;
  /** top-up orders, payment providers and the reconciliation sweeper */
  topup: TopupService;
  /** identities, console sessions, admin tokens and the sign-in providers */
  signIn: SignInServices;
  /** asynchronous video tasks (the service both video surfaces call); its poller runs until `close` */
  videoTasks: VideoTaskService;
  /** the video task poller; `videoPoller.pollOnce()` runs one look now (tests with a manual scheduler drive it) */
  videoPoller: VideoTaskPoller;
  /** the address it listens on, e.g. `http://127.0.0.1:3000` */
  url: string;
  /** the one-time first-run setup URL (token in it) when the database has no administrator yet, else undefined */
  setupUrl: string | undefined;
  /** the owner-only file in the data folder that holds `setupUrl` (never logged), when it could be written */
  setupUrlFile: string | undefined;
  /** OpenTelemetry: request and attempt spans (when an OTLP endpoint is set) and the GenAI metrics; flushed by `close` */
  telemetry: Telemetry;
  /** answers /readyz 503 (for GATEWAY_SHUTDOWN_READINESS_DELAY_MS while still serving), stops accepting, lets in-flight requests finish, then closes pools and the database */
  close(): Promise<void>;
}

/** Options of `startGateway` beyond the environment-driven configuration. */
export interface StartGatewayOptions {
  /** billing settings over those read from the environment, e.g. `{ enabled: false }` to admit every request */
  billing?: Partial<BillingConfig>;
  /** top-up settings over those read from the environment (tests point the providers at loopback fakes) */
  payments?: Partial<PaymentConfig>;
  /** the clock the channel circuit breakers run on (Unix milliseconds); default `Date.now` (tests move it through cool-downs) */
  channelHealthClock?: () => number;
  /** the video vendor adapters (one per channel protocol); default every built-in one (Sora, Azure Sora, Veo) */
  videoAdapters?: readonly VideoVendorAdapter[];
  /** the clock of the video task layer (Unix milliseconds: timeouts, expiry, poll schedule); default `Date.now` */
  videoTaskClock?: () => number;
  /** when the video poller looks for due tasks; default every GATEWAY_VIDEO_POLL_INTERVAL_MS (tests pass one that never fires) */
  videoPollScheduler?: PollScheduler;
}

/** Opens the database (migrating it), loads the routing table and listens, as `gateway start` does. */
export async function startGateway(
  config: GatewayConfig,
  logger: Logger = createLogger(config.logLevel, undefined, { format: config.logFormat ?? 'auto' }),
  options: StartGatewayOptions = {},
): Promise<RunningGateway> {
  // Owner-only before SQLite creates a byte: the database holds password hashes, sealed secrets and usage.
  const tightened = secureDataFiles({
    dataDirectory: config.dataDirectory,
    sqliteFile: sqliteFilePath(config.databaseUrl),
  });
  if (tightened.length > 0)
    logger.warn({ paths: tightened }, 'data files were readable by others: now owner-only (folder 0700, files 0600)');
  // One database for both stores: on SQLite a second connection in the same process could interleave
  // transactions into "database is locked"; one Kysely instance serializes them on one connection.
  // Connection faults of the pool (a restarted PostgreSQL) are logged, rate limited; requests that needed it get 503.
  const database = createDatabase(config.databaseUrl, { report: (error, what) => logger.warn({ err: error }, what) });
  const store = createGatewayStore({ database });
  let secretBox: SecretBox;
  try {
    await store.migrate();
    // A short key, or one that is not the database's, stops the start here with the reason.
    secretBox = await openVerifiedSecretBox({ config, database: database.database, store, logger, now: Date.now() });
  } catch (error) {
    await database.database.destroy();
    throw error;
  }
  const catalogModels = applyModelCatalogOverrides(modelCatalogData, config.modelCatalogFile);
  const routing = new RoutingCache({ store, baseModels: catalogModels, secretBox, logger });
  const channelHealth = createChannelHealthService(
    config.channelHealth ?? defaultChannelHealthSettings,
    options.channelHealthClock ?? Date.now,
  );
  // A deleted or disabled channel's breakers go with the table that no longer routes to it.
  routing.onTableReplaced((table) => channelHealth.breakers.retainChannels(table.routedChannelIds()));
  await routing.refresh();
  routing.startPolling(config.refreshIntervalMs, (error) => logger.error({ err: error }, 'routing refresh failed'));

  const billingConfig: BillingConfig = { ...loadBillingConfig(), ...options.billing };
  const billingStore = createBillingStore({ database });
  await billingStore.migrate();
  const billing = await BillingRuntime.start({
    store: billingStore,
    config: billingConfig,
    logger,
    clock: Date.now,
    revisionCheckIntervalMs: config.refreshIntervalMs,
    catalogModels,
    // Always given, so bodies kept while the log was on are still pruned after it is turned off.
    requestBodies: createRequestBodyStore(database),
  });
  billing.onInvalidation(() => routing.refresh());
  logger.info(
    { billing: billingConfig.enabled ? 'on' : 'off', sharedState: billingConfig.redisUrl ? 'redis' : 'process memory' },
    'billing ready',
  );
  const paymentConfig: PaymentConfig = { ...loadPaymentConfig(process.env), ...options.payments };
  const signIn = createSignInServices(createSignInStore({ database }), config.signIn);
  const topup = await createTopupService({
    config: paymentConfig,
    store: createTopupOrderStore(database.database),
    billing,
    logger,
    clock: Date.now,
  });
  // Built before accounting, which counts its refusals into it.
  const metrics = createGatewayMetrics();
  const accounting = billingConfig.enabled
    ? createBillingAccounting(billing, metrics.refusals)
    : createUnmeteredAccounting();

  const dispatcher = new Agent({
    connections: config.upstreamConnectionsPerOrigin,
    keepAliveTimeout: 30_000,
    keepAliveMaxTimeout: 300_000,
  });
  // Telemetry starts later (its failure handling is below); video submissions find its observer once it is there.
  let dispatchObserver: DispatchObserver | undefined;
  // Tasks left running by a stopped gateway are picked up here once their leases lapse.
  const videoTasks = startVideoTasks({
    observer: () => dispatchObserver,
    config: config.videoTasks ?? loadVideoTaskConfig({}, config.dataDirectory),
    database: database.database,
    billing: billingConfig.enabled ? billing : undefined,
    routing,
    adapters: options.videoAdapters ?? videoVendorAdapters,
    dispatcher,
    channelHealth,
    upstreamHeadersTimeoutMs: config.upstreamHeadersTimeoutMs,
    upstreamBodyTimeoutMs: config.upstreamBodyTimeoutMs,
    allowPrivateAddresses: config.imageFetchAllowPrivateAddresses,
    logger,
    clock: options.videoTaskClock ?? Date.now,
    ...(options.videoPollScheduler ? { scheduler: options.videoPollScheduler } : {}),
  });
  const remoteImageFetcher = createRemoteImageFetcher({
    isAddressAllowed: (address) => isFetchableAddress(address, config.imageFetchAllowPrivateAddresses),
    maxBytes: config.imageFetchMaxBytes,
    timeoutMs: config.imageFetchTimeoutMs,
  });
  const inFlight = new InFlightForwardings({ maxAbandonedStreamDrains: config.abandonedStreamDrains });
  const accountAdmin = createAccountAdminStore(database.database);
  const firstRun =
    (await accountAdmin.countAdmins()) === 0
      ? FirstRunSetup.open()
      : { setup: FirstRunSetup.closed(), token: undefined };
  // Set when close() begins, so /readyz answers 503 during the readiness delay and the drain.
  const shutdown = new ShutdownState();
  let app: FastifyInstance;
  let address: string;
  const telemetry = await startTelemetry(config.telemetry, (message) =>
    logger.warn({ telemetry: message }, 'OpenTelemetry'),
  );
  dispatchObserver = createTelemetryDispatchObserver(telemetry);
  try {
    registerChannelHealthMetrics(metrics.registry, channelHealth.breakers, channelHealth.clock);
    registerSettlementMetrics(metrics.registry, billing.writer);
    registerBillingMetrics(metrics.registry, {
      spend: () => billing.writer.spend.entries(),
      debtRecordedMicroUnits: () => billing.writer.spend.debtMicroUnits,
      holds: () => billing.holds,
      outstandingDebt: () => billing.memory.outstandingDebt(),
    });
    if (billing.wallet) registerWalletDriftMetrics(metrics.registry, billing.wallet);
    app = await createGatewayApp({
      config,
      routing,
      dispatcher,
      remoteImageFetcher,
      logger,
      metrics,
      accounting,
      clock: Date.now,
      channelHealth,
      responses: { store: createResponsesStore(database.database), sealer: createReasoningSealer(secretBox) },
      ...messageThreadServices(config, database.database),
      videoTasks: videoTasks.service,
      requestBodyLog: billing.requestBodyLog,
      api: {
        gatewayStore: store,
        billing,
        accountAdmin,
        setup: firstRun.setup,
        topup,
        signIn,
        twoFactor: {
          store: createTwoFactorStore(database.database),
          secretBox,
          attempts: new LoginAttemptLimiter({ redis: billing.sharedRedis }),
          requireForAdmins: config.signIn?.requireAdminTwoFactor ?? false,
          issuer: twoFactorIssuer(config.signIn?.publicUrl),
        },
      },
      inFlight,
      shutdown,
      telemetry,
      observer: dispatchObserver,
    });
    address = await app.listen({ port: config.port, host: config.host });
    topup.useListeningUrl(address.replace('[::1]', '127.0.0.1').replace('0.0.0.0', '127.0.0.1'));
    topup.startSweeper();
  } catch (error) {
    // A failed start (a port in use) must not leave Redis connections and timers keeping the process alive.
    routing.stop();
    await videoTasks.stop();
    await billing.close();
    await dispatcher.close();
    await remoteImageFetcher.close();
    await telemetry.shutdown();
    await database.database.destroy();
    throw error;
  }
  const url = address.replace('[::1]', '127.0.0.1').replace('0.0.0.0', '127.0.0.1');
  // Where the operator's browser reaches the gateway: GATEWAY_PUBLIC_URL when set, else the listening address.
  const setupUrl =
    firstRun.token === undefined ? undefined : `${config.signIn?.publicUrl ?? url}/setup?token=${firstRun.token}`;
  // The token is a credential: it goes to the terminal (`gateway start`) and an owner-only file, never to the log.
  const setupUrlFile = writeSetupUrlFile(config.dataDirectory, setupUrl);
  if (setupUrl)
    logger.warn(
      { setupUrlFile },
      'no administrator yet: the one-time setup URL that creates the first one is in setupUrlFile (and on the terminal of `gateway start`)',
    );
  return {
    app,
    store,
    routing,
    billing,
    url,
    setupUrl,
    setupUrlFile,
    telemetry,
    topup,
    signIn,
    videoTasks: videoTasks.service,
    videoPoller: videoTasks.poller,
    async close() {
      // Not ready from now on; for the readiness delay everything is still served, so a load balancer polling /readyz
      // takes the node out before its server stops accepting connections.
      shutdown.begin();
      const readinessDelayMs = config.shutdownReadinessDelayMs ?? 0;
      if (readinessDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, readinessDelayMs));
      routing.stop();
      // In-flight requests get the grace period; a connection still open after it (a stream, a stuck
      // keep-alive socket) must not keep the process from stopping. Requests still waiting on a vendor then are
      // cut and settled by the client-abort rule (billed for what the vendor did, at least the estimated input
      // once sent), like those whose client left before and whose answer the gateway is still reading.
      const forceClose = setTimeout(() => {
        app.server.closeAllConnections();
        inFlight.stop();
      }, config.shutdownGraceMs);
      try {
        await app.close();
        await inFlight.drained();
      } finally {
        clearTimeout(forceClose);
      }
      await topup.stopSweeper();
      // Before billing closes, so a settlement made by the last look reaches the last batch.
      await videoTasks.stop();
      // After every forwarded request settled, so each one is in the last batch.
      await billing.close();
      await dispatcher.close();
      await remoteImageFetcher.close();
      // After every request ended, so the last spans and metric points are exported.
      await telemetry.shutdown();
      await database.database.destroy();
    },
  };
}

/** The message thread store, unless GATEWAY_MESSAGE_THREAD_RETENTION_HOURS=0 turned threads off. */
function messageThreadServices(
  config: GatewayConfig,
  database: Parameters<typeof createMessageThreadStore>[0],
): Pick<GatewayServices, 'messageThreads'> {
  const hours = config.messageThreadRetentionHours ?? defaultMessageThreadRetentionHours;
  if (hours === 0) return {};
  return { messageThreads: { store: createMessageThreadStore(database), retentionMs: hours * 3_600_000 } };
}
