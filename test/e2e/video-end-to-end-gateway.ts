// The real gateway with the real task layer and the Sora and Veo simulators, for the video end-to-end tests
// (test/e2e/video-*-end-to-end.test.ts, video-task-durability.test.ts). The task layer runs on a clock the test moves
// (`videoTaskClock`) and its poller never fires by itself (`videoPollScheduler`): each round is `runDueTasks()`, so no
// test sleeps. The simulators finish a job on its second status read and pick its outcome from prompt markers
// (test/simulators/video-simulator-outcome.ts).
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import OpenAI from 'openai';
import { request } from 'undici';
import { displayPrefixOf, generateApiKeySecret, hashApiKeySecret } from '../../src/accounts/api-key-secret.js';
import { createSecretBox } from '../../src/accounts/secret-box.js';
import { loadVideoTaskConfig, type GatewayConfig } from '../../src/config/gateway-config.js';
import { createLogger } from '../../src/observability/create-logger.js';
import { modelCatalogData } from '../../src/routing/model-catalog-data.js';
import { startGateway, type RunningGateway } from '../../src/runtime/start-gateway.js';
import type { UserRecord } from '../../src/storage/store-records.js';
import type { PollScheduler } from '../../src/tasks/video-task-poller.js';
import { startSoraSimulator, type SoraSimulator } from '../simulators/sora-simulator.js';
import { startVeoSimulator, type VeoSimulator } from '../simulators/veo-simulator.js';
import { createTestGatewayConfig } from '../helpers/create-test-gateway-config.js';
import { createPostgresTestDatabaseUrl, type PostgresTestDatabase } from '../helpers/postgres-test-database.js';
import { testSecretKey, uniqueName } from '../helpers/start-test-gateway.js';

/** Prompts that make the simulators succeed, fail, filter or never finish (their markers). */
export const vendorPrompts = {
  success: 'a calm lake at sunrise',
  failure: 'a calm lake sim-video-fail',
  contentFiltered: 'a calm lake sim-video-filtered',
  neverFinishes: 'a calm lake sim-video-never',
} as const;

/** The channel secrets the simulators accept; they must never reach a client. */
export const channelSecrets = { sora: 'sk-sora-channel-secret', veo: 'veo-channel-secret-key' } as const;

/** The video models each vendor serves here, portrait and landscape (the catalog's pairs). */
export const videoModels = {
  sora: ['sora-2', 'sora-2-landscape'],
  veo: ['veo-3.0-generate-001', 'veo-3.0-generate-001-landscape'],
} as const;

/** The lengths each vendor makes (Sora 4/8/12 s, Veo 4/6/8 s), for the nearest-length expectations. */
export const vendorSeconds = { sora: [4, 8, 12], veo: [4, 6, 8] } as const;

/** The price ratio of the test group, in millionths (1.5×), so the tests see the ratio applied. */
export const groupPriceRatioMillionths = 1_500_000;

/** Micro-units one funded user starts with. */
export const startingBalance = 1_000_000_000;

/** A simulated clock every gateway of one test shares (Unix milliseconds). */
export interface TestClock {
  now(): number;
  advance(milliseconds: number): void;
}

/**
 * A clock that only moves when told, starting now (whole seconds): the gateway's own clock (`GatewayServices.clock`,
 * which checks signed URLs) stays real, so the task layer's clock must not start in the past.
 */
export function createTestClock(start = Math.floor(Date.now() / 1000) * 1000): TestClock {
  let current = start;
  return { now: () => current, advance: (milliseconds) => (current += milliseconds) };
}

/** The per-second price of a model after the group ratio, in micro-units (the catalog's default prices). */
export function pricePerSecondOf(modelId: string): number {
  const model = modelCatalogData.find((candidate) => candidate.id === modelId);
  const perSecond = model?.defaultPrices?.perVideoSecond;
  if (perSecond === undefined) throw new Error(`no per-second price for ${modelId}`);
  return (perSecond * groupPriceRatioMillionths) / 1_000_000;
}

/** The vendor length nearest to `asked` (either neighbour on a tie; planVideoJob takes the shorter). */
export function nearestVendorSeconds(vendor: keyof typeof vendorSeconds, asked: number): number[] {
  const distances = vendorSeconds[vendor].map((seconds) => Math.abs(seconds - asked));
  const best = Math.min(...distances);
  return vendorSeconds[vendor].filter((_, index) => distances[index] === best);
}

/** A scheduler that never fires: the tests run every poller look themselves. */
const manualPollScheduler: PollScheduler = { every: () => ({ stop: () => undefined }) };

/** One gateway instance (of possibly several on one database) and how to drive its poller. */
export interface VideoGatewayInstance {
  running: RunningGateway;
  url: string;
  /** one poller look now */
  runDueTasks(): Promise<void>;
  close(): Promise<void>;
}

/** Everything one end-to-end test file needs: the simulators, the database, seeded keys, gateway instances. */
export interface VideoEndToEnd {
  clock: TestClock;
  config: GatewayConfig;
  /** simulators' base URLs, to prove they never reach a client */
  vendorUrls: string[];
  owner: UserRecord;
  ownerKey: string;
  otherUsersKey: string;
  /** a user with no balance at all, and their key */
  brokeUser: UserRecord;
  brokeKey: string;
  /** requests both simulators received so far (submits, polls, downloads) */
  vendorRequestCount(): number;
  /** the simulators themselves (their recorded requests, their signed storage) */
  simulators: { sora: SoraSimulator; veo: VeoSimulator };
  /** the first gateway instance (more come from `startInstance`) */
  gateway: VideoGatewayInstance;
  startInstance(): Promise<VideoGatewayInstance>;
  sdk(instance: VideoGatewayInstance, key: string): OpenAI;
  balanceOf(userId: string): Promise<number>;
  /** runs `gateway billing verify --json` on the test's database, as an operator would */
  verifyBilling(): Promise<{ exitCode: number; output: string }>;
  close(): Promise<void>;
}

/** Starts both simulators, a database (`sqlite` in a temporary folder or a throwaway `postgres`), seeds it and starts one gateway. */
export async function startVideoEndToEnd(
  options: { database?: 'sqlite' | 'postgres'; videoEnvironment?: NodeJS.ProcessEnv } = {},
): Promise<VideoEndToEnd> {
  const sora = await startSoraSimulator({ apiKey: channelSecrets.sora });
  const veo = await startVeoSimulator({ apiKey: channelSecrets.veo });
  const dataDirectory = await mkdtemp(path.join(os.tmpdir(), 'gateway-video-e2e-'));
  let postgres: PostgresTestDatabase | undefined;
  if (options.database === 'postgres') {
    postgres = await createPostgresTestDatabaseUrl();
    if (!postgres) throw new Error('the two-gateway video test needs GATEWAY_TEST_POSTGRES_URL');
  }
  const config = createTestGatewayConfig(
    {
      dataDirectory,
      databaseUrl: postgres?.url ?? `sqlite:${path.join(dataDirectory, 'gateway.db')}`,
      secretKey: testSecretKey,
    },
    // GATEWAY_VIDEO_* as the operator sets them (e.g. the task timeout), read the way `gateway start` reads them.
    // The simulators and the signed storage their downloads redirect to are loopback addresses.
    {
      videoTasks: loadVideoTaskConfig(options.videoEnvironment ?? {}, dataDirectory),
      imageFetchAllowPrivateAddresses: true,
    },
  );
  const clock = createTestClock();
  const instances: VideoGatewayInstance[] = [];

  const startInstance = async (): Promise<VideoGatewayInstance> => {
    // The task layer's clock is the test's, and its poller looks only when the test says so.
    const running = await startGateway(config, createLogger(config.logLevel), {
      billing: { enabled: true },
      videoTaskClock: clock.now,
      videoPollScheduler: manualPollScheduler,
    });
    const instance: VideoGatewayInstance = {
      running,
      url: running.url,
      runDueTasks: async () => {
        await running.videoPoller.pollOnce();
      },
      close: async () => {
        running.app.server.closeAllConnections();
        await running.close();
        instances.splice(instances.indexOf(instance), 1);
      },
    };
    instances.push(instance);
    return instance;
  };

  const gateway = await startInstance();
  const { store, billing } = gateway.running;
  const secretBox = createSecretBox(testSecretKey);
  await store.createChannel({
    name: uniqueName('sora'),
    protocol: 'openai',
    preset: null,
    baseUrl: sora.url,
    encryptedSecret: secretBox.encrypt(channelSecrets.sora),
    models: [...videoModels.sora],
    modelMapping: {},
    priority: 0,
    weight: 1,
  });
  await store.createChannel({
    name: uniqueName('veo'),
    protocol: 'gemini',
    preset: null,
    baseUrl: veo.url,
    encryptedSecret: secretBox.encrypt(channelSecrets.veo),
    models: [...videoModels.veo],
    modelMapping: {},
    priority: 0,
    weight: 1,
  });
  const group = await store.createModelGroup({
    name: uniqueName('video-group'),
    description: 'video end-to-end',
    models: ['*'],
  });
  await billing.store.setGroupPriceRatio(group.id, groupPriceRatioMillionths);
  const createUserWithKey = async (balance: number) => {
    const user = await store.createUser({
      email: `${uniqueName('video-user')}@example.test`,
      displayName: 'Video user',
      role: 'user',
      passwordHash: null,
    });
    if (balance > 0)
      await billing.changeBalance({
        userId: user.id,
        kind: 'top-up',
        amount: balance,
        description: 'video end-to-end',
      });
    const secret = generateApiKeySecret();
    await store.createApiKey({
      userId: user.id,
      groupId: group.id,
      name: uniqueName('key'),
      keyHash: hashApiKeySecret(secret),
      keyPrefix: displayPrefixOf(secret),
      expiresAt: null,
    });
    return { user, secret };
  };
  const owner = await createUserWithKey(startingBalance);
  const other = await createUserWithKey(startingBalance);
  const broke = await createUserWithKey(0);
  await gateway.running.routing.refresh();
  await billing.refresh(true);

  return {
    clock,
    config,
    vendorUrls: [sora.url, veo.url],
    owner: owner.user,
    ownerKey: owner.secret,
    otherUsersKey: other.secret,
    brokeUser: broke.user,
    brokeKey: broke.secret,
    vendorRequestCount: () => sora.requests.length + veo.requests.length,
    simulators: { sora, veo },
    gateway,
    async startInstance() {
      const instance = await startInstance();
      await instance.running.routing.refresh();
      return instance;
    },
    sdk: (instance, key) => new OpenAI({ apiKey: key, baseURL: `${instance.url}/v1`, maxRetries: 0, timeout: 20_000 }),
    balanceOf: async (userId) => (await gateway.running.billing.store.readBalance(userId)) ?? 0,
    verifyBilling: () =>
      promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'billing', 'verify', '--json'], {
        env: {
          ...process.env,
          GATEWAY_DATA_DIR: dataDirectory,
          GATEWAY_DATABASE_URL: config.databaseUrl,
          GATEWAY_SECRET_KEY: testSecretKey,
        },
      }).then(
        (result) => ({ exitCode: 0, output: result.stdout }),
        (error: { code: number; stdout: string }) => ({ exitCode: error.code, output: error.stdout }),
      ),
    async close() {
      for (const instance of [...instances]) await instance.close();
      await sora.close();
      await veo.close();
      await rm(dataDirectory, { recursive: true, force: true });
      await postgres?.drop();
    },
  };
}

/** A raw answer of the gateway. */
export interface RawVideoAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  json(): Record<string, unknown>;
}

/** One raw request to a gateway instance; `key` null sends no key. */
export async function sendVideoRequest(
  instance: VideoGatewayInstance,
  requestPath: string,
  options: { key: string | null; json?: unknown; method?: 'GET' | 'POST' | 'DELETE' },
): Promise<RawVideoAnswer> {
  const headers: Record<string, string> = options.key === null ? {} : { authorization: `Bearer ${options.key}` };
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  const response = await request(instance.url + requestPath, {
    method: options.method ?? (options.json === undefined ? 'GET' : 'POST'),
    headers,
    body: options.json === undefined ? undefined : JSON.stringify(options.json),
  });
  const body = Buffer.from(await response.body.arrayBuffer());
  return {
    status: response.statusCode,
    headers: response.headers,
    body,
    json: () => JSON.parse(body.toString('utf8')) as Record<string, unknown>,
  };
}

/** The spec status of a task, as its owner sees it. */
export async function readSpecTask(
  instance: VideoGatewayInstance,
  key: string,
  taskId: string,
): Promise<Record<string, unknown>> {
  const answer = await sendVideoRequest(instance, `/v1/videos/generations/${taskId}`, { key });
  if (answer.status !== 200) throw new Error(`status ${answer.status}: ${answer.body.toString()}`);
  return answer.json();
}

/**
 * Moves the shared clock on in the spec's recommended polling steps (10 s, so every backoff comes due) and runs each
 * instance's poller, until the task is completed or failed; throws after `maxRounds` rounds.
 */
export async function pollUntilFinished(
  setup: VideoEndToEnd,
  instances: VideoGatewayInstance[],
  taskId: string,
  maxRounds = 60,
): Promise<Record<string, unknown>> {
  for (let round = 0; round < maxRounds; round += 1) {
    setup.clock.advance(10_000);
    await Promise.all(instances.map((instance) => instance.runDueTasks()));
    const task = await readSpecTask(instances[0] ?? setup.gateway, setup.ownerKey, taskId);
    if (task.status === 'completed' || task.status === 'failed') return task;
  }
  throw new Error(`task ${taskId} did not finish in ${maxRounds} rounds`);
}

/** Fails when a client-visible text carries a vendor URL or a channel secret. */
export function expectNoVendorDetails(setup: VideoEndToEnd, text: string): void {
  for (const secret of [...setup.vendorUrls, channelSecrets.sora, channelSecrets.veo]) {
    if (text.includes(secret)) throw new Error(`a client saw ${secret}`);
  }
}
