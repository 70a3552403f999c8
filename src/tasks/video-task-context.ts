import type { Logger } from 'pino';
import type { Dispatcher } from 'undici';
import type { BillingRuntime } from '../billing/billing-runtime.js';
import type { DispatchObserver } from '../dispatch/dispatch-observer.js';
import type { VideoDispatchOptions } from '../dispatch/video/send-video-vendor-request.js';
import type { VideoVendorAdapter } from '../providers/video/video-vendor-adapter.js';
import type { ChannelHealthService } from '../routing/channel-health/channel-health-service.js';
import type { RoutableChannel } from '../routing/routing-table.js';
import type { VideoTaskStore } from '../storage/video-task-store.js';
import type { VideoContentStorage } from './video-content-storage.js';

/** Timings of the task layer, in milliseconds (docs/VIDEO.md, "Tasks"). */
export interface VideoTaskSettings {
  /** after creation, how long a task and its video are kept; then both surfaces answer 404 (24 h) */
  retentionMs: number;
  /** a task unfinished this long after creation is cancelled and fails with `task_timeout` (GATEWAY_VIDEO_TASK_TIMEOUT_MINUTES) */
  timeoutMs: number;
  /** how long a poller owns a claimed task; a poller that died frees its tasks when this lapses */
  leaseMs: number;
  /** how often the poller looks for due tasks */
  pollIntervalMs: number;
}

/** Defaults: 24 h retention, 60 min timeout, 5 min lease, a look every second. */
export const defaultVideoTaskSettings: VideoTaskSettings = {
  retentionMs: 24 * 3_600_000,
  timeoutMs: 60 * 60_000,
  leaseMs: 5 * 60_000,
  pollIntervalMs: 1_000,
};

/** How finished videos are downloaded (docs/VIDEO.md, "Downloads"). */
export interface VideoDownloadSettings {
  /** the pool for redirect targets off the channel's origin: its DNS lookup refuses what `isAddressAllowed` refuses */
  redirectDispatcher: Dispatcher;
  /** whether a redirect target's IP address may be reached (remote images' rule, isFetchableAddress) */
  isAddressAllowed: (address: string) => boolean;
  /** largest video stored, in bytes (GATEWAY_VIDEO_MAX_BYTES) */
  maxBytes: number;
}

/** What the task service and the poller share. */
export interface VideoTaskContext {
  store: VideoTaskStore;
  /** balances and the batch writer; undefined when billing is off (tasks then hold nothing) */
  billing: BillingRuntime | undefined;
  routing: { current: { channelsFor(modelId: string): readonly RoutableChannel[] } };
  /** one adapter per vendor protocol; a channel is used for video when an adapter speaks its protocol */
  adapters: readonly VideoVendorAdapter[];
  dispatch: VideoDispatchOptions;
  /** circuit breakers per (channel, model): submissions skip channels whose breaker is open and feed each outcome */
  channelHealth: ChannelHealthService;
  /** the telemetry of submission attempts, read when a task is submitted (telemetry starts after the task layer) */
  observer?: (() => DispatchObserver | undefined) | undefined;
  download: VideoDownloadSettings;
  storage: VideoContentStorage;
  /** Unix milliseconds */
  clock: () => number;
  logger: Logger;
  settings: VideoTaskSettings;
}

/** The adapter speaking a channel's protocol, if any. */
export function adapterFor(context: VideoTaskContext, channel: RoutableChannel): VideoVendorAdapter | undefined {
  return context.adapters.find((adapter) => adapter.protocol === channel.protocol);
}

/** The storage key of a task's video. */
export function videoStorageKey(taskId: string): string {
  return `${taskId}.mp4`;
}
