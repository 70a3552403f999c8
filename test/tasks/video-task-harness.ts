// Builds the task layer over a real database, a real billing runtime and the loopback vendor, with an injected clock.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Agent } from 'undici';
import { loadBillingConfig } from '../../src/billing/billing-config.js';
import { BillingRuntime } from '../../src/billing/billing-runtime.js';
import { createLogger } from '../../src/observability/create-logger.js';
import { defaultChannelHealthSettings } from '../../src/config/channel-health-settings.js';
import { createChannelHealthService } from '../../src/routing/channel-health/channel-health-service.js';
import { createCheckedLookup } from '../../src/providers/remote-image/create-checked-lookup.js';
import { isFetchableAddress } from '../../src/providers/remote-image/is-fetchable-address.js';
import type { CatalogModel } from '../../src/routing/catalog-model.js';
import type { KeyPrincipal, RoutableChannel } from '../../src/routing/routing-table.js';
import { createDatabase, type CreatedDatabase } from '../../src/storage/create-database.js';
import type { BillingStore } from '../../src/storage/billing-store.js';
import { createBillingStore } from '../../src/storage/kysely-billing-store.js';
import { createGatewayStore } from '../../src/storage/kysely-gateway-store.js';
import { createVideoTaskStore } from '../../src/storage/kysely-video-task-store.js';
import type { VideoTaskStore } from '../../src/storage/video-task-store.js';
import { createLocalFolderVideoStorage } from '../../src/tasks/local-folder-video-storage.js';
import { createVideoTaskService } from '../../src/tasks/create-video-task-service.js';
import { defaultVideoTaskSettings, type VideoTaskContext } from '../../src/tasks/video-task-context.js';
import type { VideoTaskService, VideoTaskSubmission } from '../../src/tasks/video-task-service.js';
import { VideoTaskPoller, type PollScheduler } from '../../src/tasks/video-task-poller.js';
import type { TestDatabase } from '../helpers/storage-test-engines.js';
import { loopbackVideoAdapter, startLoopbackVideoVendor, type LoopbackVideoVendor } from './loopback-video-vendor.js';

/** micro-units per second of the test model before the ratio */
export const pricePerSecond = 100_000;
/** the test group's ratio: ×1.5 */
export const groupRatioMillionths = 1_500_000;
/** what the user starts with: 5.000000 */
export const startingBalance = 5_000_000;

export const videoModel: CatalogModel = {
  id: 'sora-test',
  ownedBy: 'test',
  kind: 'video',
  created: 0,
  inputModalities: ['text'],
};

/** A scheduler that never runs anything by itself: tests call `pollOnce`. */
export const manualScheduler: PollScheduler = { every: () => ({ stop: () => undefined }) };

/** One gateway "process" over the shared database: its billing runtime, service and poller. */
export interface TaskNode {
  billing: BillingRuntime;
  service: VideoTaskService;
  poller: VideoTaskPoller;
  context: VideoTaskContext;
  close(): Promise<void>;
}

export interface TaskHarness {
  database: CreatedDatabase;
  billingStore: BillingStore;
  taskStore: VideoTaskStore;
  vendor: LoopbackVideoVendor;
  /** a second vendor for failover tests */
  otherVendor: LoopbackVideoVendor;
  channels: RoutableChannel[];
  principal: KeyPrincipal;
  /** the injected clock, Unix milliseconds; tests move `now.value` */
  now: { value: number };
  storageFolder: string;
  node: TaskNode;
  startNode(): Promise<TaskNode>;
  submission(overrides?: Partial<VideoTaskSubmission>): VideoTaskSubmission;
  close(): Promise<void>;
}

function channel(id: string, baseUrl: string, priority: number): RoutableChannel {
  return {
    id,
    name: id,
    protocol: 'openai',
    baseUrl,
    secret: 'sk-test',
    priority,
    weight: 1,
    ownedBy: 'test',
    modelMapping: new Map([['sora-test', 'sora-2']]),
    settings: {},
  };
}

/**
 * Opens a fresh database on the engine, a user with `startingBalance`, a priced model, and one node (videos capped at
 * `maxBytes`, default 1 MiB; nodes share a Redis wallet when `redisUrl` is given).
 */
export async function createTaskHarness(
  testDatabase: TestDatabase,
  options: { maxBytes?: number; redisUrl?: string } = {},
): Promise<TaskHarness> {
  const database = createDatabase(testDatabase.url);
  const gatewayStore = createGatewayStore({ database });
  await gatewayStore.migrate();
  const billingStore = createBillingStore({ database });
  const taskStore = createVideoTaskStore(database.database);
  const user = await gatewayStore.createUser({
    email: 'ada@example.com',
    displayName: 'Ada',
    role: 'user',
    passwordHash: null,
  });
  const group = await gatewayStore.createModelGroup({ name: 'default', description: '', models: ['*'] });
  const key = await gatewayStore.createApiKey({
    userId: user.id,
    groupId: group.id,
    name: 'k',
    keyHash: 'a'.repeat(64),
    keyPrefix: 'sk-gw-aaaa',
    expiresAt: null,
  });
  await billingStore.changeBalance({ userId: user.id, kind: 'top-up', amount: startingBalance, description: 'test' });
  await billingStore.setModelPrice({
    modelId: 'sora-test',
    inputPerMillion: 0,
    cachedInputPerMillion: 0,
    cacheWritePerMillion: 0,
    outputPerMillion: 0,
    imagePrices: {},
    audioPerMinute: 0,
    videoPerSecond: pricePerSecond,
  });
  await billingStore.setGroupPriceRatio(group.id, groupRatioMillionths);
  const vendor = await startLoopbackVideoVendor();
  const otherVendor = await startLoopbackVideoVendor();
  const channels = [channel('ch_primary', vendor.url, 10)];
  const storageFolder = await mkdtemp(path.join(tmpdir(), 'video-storage-'));
  const now = { value: Date.UTC(2026, 10, 24, 12) };
  const dispatcher = new Agent();
  const redirectDispatcher = new Agent({
    connect: { lookup: createCheckedLookup((address) => isFetchableAddress(address, true)) },
  });
  const nodes: TaskNode[] = [];

  async function startNode(): Promise<TaskNode> {
    const config = { ...loadBillingConfig({}), reloadIntervalMs: 0, redisUrl: options.redisUrl };
    const billing = await BillingRuntime.start({
      store: billingStore,
      config,
      logger: createLogger('silent'),
      clock: () => now.value,
      revisionCheckIntervalMs: 0,
    });
    const context: VideoTaskContext = {
      store: taskStore,
      billing,
      routing: { current: { channelsFor: (modelId) => (modelId === 'sora-test' ? channels : []) } },
      adapters: [loopbackVideoAdapter],
      dispatch: { dispatcher, headersTimeoutMs: 10_000, bodyTimeoutMs: 10_000 },
      channelHealth: createChannelHealthService(defaultChannelHealthSettings, () => now.value),
      // Loopback vendors and redirect targets are private addresses: allowed here, as GATEWAY_IMAGE_FETCH_ALLOW_PRIVATE_ADDRESSES does.
      download: {
        redirectDispatcher,
        isAddressAllowed: (address) => isFetchableAddress(address, true),
        maxBytes: options.maxBytes ?? 1024 * 1024,
      },
      storage: createLocalFolderVideoStorage(storageFolder),
      clock: () => now.value,
      logger: createLogger('silent'),
      settings: defaultVideoTaskSettings,
    };
    const node: TaskNode = {
      billing,
      context,
      service: createVideoTaskService(context, { random: () => 0.5 }),
      poller: new VideoTaskPoller(context, manualScheduler),
      close: async () => {
        await node.poller.stop();
        await billing.close();
      },
    };
    nodes.push(node);
    return node;
  }

  const node = await startNode();
  const principal: KeyPrincipal = {
    apiKeyId: key.id,
    userId: user.id,
    groupId: group.id,
    groupName: 'default',
    expiresAt: null,
    allowedModels: null,
  };
  return {
    database,
    billingStore,
    taskStore,
    vendor,
    otherVendor,
    channels,
    principal,
    now,
    storageFolder,
    node,
    startNode,
    submission(overrides = {}) {
      return {
        principal,
        model: videoModel,
        prompt: 'a cat surfing',
        requestedSeconds: 8,
        surface: 'openai',
        requestId: 'req_1',
        clientIp: '127.0.0.1',
        ...overrides,
      };
    },
    async close() {
      for (const started of nodes) await started.close();
      await vendor.close();
      await otherVendor.close();
      await dispatcher.close();
      await redirectDispatcher.close();
      await database.database.destroy();
      await rm(storageFolder, { recursive: true, force: true });
    },
  };
}
