import type { Logger } from 'pino';
import { Agent, type Dispatcher } from 'undici';
import type { BillingRuntime } from '../billing/billing-runtime.js';
import type { VideoTaskConfig } from '../config/gateway-config.js';
import { createCheckedLookup } from '../providers/remote-image/create-checked-lookup.js';
import { isFetchableAddress } from '../providers/remote-image/is-fetchable-address.js';
import type { VideoVendorAdapter } from '../providers/video/video-vendor-adapter.js';
import type { ChannelHealthService } from '../routing/channel-health/channel-health-service.js';
import type { RoutableChannel } from '../routing/routing-table.js';
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../storage/database-schema.js';
import { createVideoTaskStore } from '../storage/kysely-video-task-store.js';
import { createVideoTaskService } from './create-video-task-service.js';
import { createLocalFolderVideoStorage } from './local-folder-video-storage.js';
import type { DispatchObserver } from '../dispatch/dispatch-observer.js';
import type { VideoTaskContext } from './video-task-context.js';
import { VideoTaskPoller, type PollScheduler } from './video-task-poller.js';
import type { VideoTaskService } from './video-task-service.js';

/** The running task layer of one gateway: the service the HTTP surfaces call and the poller. */
export interface RunningVideoTasks {
  service: VideoTaskService;
  poller: VideoTaskPoller;
  /** stops the poller (its leases lapse for the next gateway if a look is cut short) and closes the redirect pool */
  stop(): Promise<void>;
}

/** Builds the task layer over the gateway's database, billing, routing and connection pools, and starts its poller. */
export function startVideoTasks(options: {
  config: VideoTaskConfig;
  database: Kysely<DatabaseSchema>;
  /** undefined when billing is off: tasks then hold and charge nothing */
  billing: BillingRuntime | undefined;
  routing: { current: { channelsFor(modelId: string): readonly RoutableChannel[] } };
  adapters: readonly VideoVendorAdapter[];
  dispatcher: Dispatcher;
  /** the gateway's circuit breakers: video submissions are gated and counted like every other upstream call */
  channelHealth: ChannelHealthService;
  /** telemetry of each submission attempt (CLIENT spans, `gen_ai.client.*` metrics); absent: none */
  observer?: (() => DispatchObserver | undefined) | undefined;
  upstreamHeadersTimeoutMs: number;
  upstreamBodyTimeoutMs: number;
  /** whether download redirects may reach private and loopback addresses (GATEWAY_IMAGE_FETCH_ALLOW_PRIVATE_ADDRESSES) */
  allowPrivateAddresses: boolean;
  logger: Logger;
  clock: () => number;
  scheduler?: PollScheduler;
}): RunningVideoTasks {
  const { config } = options;
  const isAddressAllowed = (address: string): boolean => isFetchableAddress(address, options.allowPrivateAddresses);
  // Redirect targets are addresses a vendor names: every connection is checked as remote images' are.
  const redirectDispatcher = new Agent({
    connect: { lookup: createCheckedLookup(isAddressAllowed) },
    keepAliveTimeout: 10_000,
  });
  const context: VideoTaskContext = {
    store: createVideoTaskStore(options.database),
    billing: options.billing,
    routing: options.routing,
    adapters: options.adapters,
    dispatch: {
      dispatcher: options.dispatcher,
      headersTimeoutMs: options.upstreamHeadersTimeoutMs,
      bodyTimeoutMs: options.upstreamBodyTimeoutMs,
    },
    channelHealth: options.channelHealth,
    observer: options.observer,
    download: { redirectDispatcher, isAddressAllowed, maxBytes: config.maxBytes },
    storage: createLocalFolderVideoStorage(config.storageDirectory),
    clock: options.clock,
    logger: options.logger,
    settings: {
      retentionMs: config.retentionHours * 3_600_000,
      timeoutMs: config.timeoutMinutes * 60_000,
      leaseMs: config.leaseMs,
      pollIntervalMs: config.pollIntervalMs,
    },
  };
  const poller = new VideoTaskPoller(context, options.scheduler);
  poller.start();
  return {
    service: createVideoTaskService(context),
    poller,
    stop: async () => {
      await poller.stop();
      await redirectDispatcher.close();
    },
  };
}
