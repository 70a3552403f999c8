// Starts a real gateway in-process for one end-to-end test file, with helpers that seed users, groups,
// channels and keys straight through the store, the way the CLI and console do.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { request, type FormData } from 'undici';
import { displayPrefixOf, generateApiKeySecret, hashApiKeySecret } from '../../src/accounts/api-key-secret.js';
import { createSecretBox, resolveSecretPassphrase, type SecretBox } from '../../src/accounts/secret-box.js';
import type { BillingConfig } from '../../src/billing/billing-config.js';
import type { GatewayConfig } from '../../src/config/gateway-config.js';
import { createLogger } from '../../src/observability/create-logger.js';
import { startGateway, type RunningGateway } from '../../src/runtime/start-gateway.js';
import type { GatewayStore } from '../../src/storage/gateway-store.js';
import type { ApiKeyRecord, ChannelRecord, ModelGroupRecord, UserRecord } from '../../src/storage/store-records.js';
import { createPostgresTestDatabaseUrl, type PostgresTestDatabase } from './postgres-test-database.js';
import { createTestGatewayConfig } from './create-test-gateway-config.js';
import { undiciTestAgent } from './undici-test-agent.js';

/** The fixed passphrase test gateways encrypt channel secrets with. */
export const testSecretKey = 'end-to-end-test-secret-key-of-32-bytes-or-more';

/** How to start a test gateway. */
export interface TestGatewayOptions {
  /**
   * `sqlite` in a temporary folder, or a throwaway `postgres` database (needs GATEWAY_TEST_POSTGRES_URL); the default
   * is `sqlite`, or `postgres` when GATEWAY_E2E_DATABASE=postgres runs the whole suite on PostgreSQL.
   */
  database?: 'sqlite' | 'postgres';
  /** configuration values to use instead of the test defaults */
  config?: Partial<GatewayConfig>;
  /** billing settings; default `{ enabled: false }`, so every request is admitted without a balance */
  billing?: Partial<BillingConfig>;
  /** the clock the channel circuit breakers run on (Unix milliseconds); default `Date.now` */
  channelHealthClock?: () => number;
}

/** A channel to seed; everything but where it points and what it serves has a default. */
export interface TestChannelOptions {
  /** upstream base URL including `/v1`, e.g. a simulator's `url` */
  baseUrl: string;
  /** the upstream secret the gateway must send (stored encrypted) */
  secret: string;
  /** public model ids the channel serves */
  models: string[];
  /** public model id -> upstream model name */
  modelMapping?: Record<string, string>;
  /** unique name; a random one when absent */
  name?: string;
  /** higher is tried first; default 0 */
  priority?: number;
  /** share of traffic among equal priorities; default 1 */
  weight?: number;
  /** vendor preset label; default null (a custom channel) */
  preset?: string | null;
  /** wire protocol; default `openai` */
  protocol?: string;
  /** channel settings (`premiumFields`, `apiVersion`, ...); default none */
  settings?: Record<string, string>;
  /** false leaves the routing cache alone (call `refreshRouting()` after seeding many); default true */
  refreshRouting?: boolean;
}

/** A key to seed. */
export interface TestKeyOptions {
  /** models of a new group made for this key; default `['*']` (every served model) */
  models?: string[];
  /** an existing group to put the key in instead of making one */
  group?: ModelGroupRecord;
  /** the owner; default the gateway's test user */
  user?: UserRecord;
  /** Unix milliseconds after which the key stops working; default never */
  expiresAt?: number | null;
  /** false leaves the routing cache alone, so the gateway must find the key by itself; default true */
  refreshRouting?: boolean;
}

/** A seeded key: the secret a client sends, and the stored record. */
export interface TestKey {
  secret: string;
  record: ApiKeyRecord;
}

/** A gateway running for one test file. */
export interface TestGateway {
  /** e.g. `http://127.0.0.1:PORT` */
  url: string;
  /** what SDK clients take as `baseURL`: `url + '/v1'` */
  baseURL: string;
  store: GatewayStore;
  running: RunningGateway;
  config: GatewayConfig;
  /** encrypts channel secrets the way the gateway decrypts them */
  secretBox: SecretBox;
  /** the user keys belong to unless told otherwise */
  defaultUser: UserRecord;
  createUser(role?: UserRecord['role']): Promise<UserRecord>;
  createGroup(models: string[]): Promise<ModelGroupRecord>;
  createChannel(options: TestChannelOptions): Promise<ChannelRecord>;
  createKey(options?: TestKeyOptions): Promise<TestKey>;
  /** reloads keys, groups and channels into the running gateway's memory */
  refreshRouting(): Promise<void>;
  close(): Promise<void>;
}

let uniqueCounter = 0;

/** A name no other record of this test run has. */
export function uniqueName(prefix: string): string {
  uniqueCounter += 1;
  return `${prefix}-${process.pid}-${uniqueCounter}`;
}

/** Starts a gateway on 127.0.0.1 and a free port, with a temporary data folder and database. */
export async function startTestGateway(options: TestGatewayOptions = {}): Promise<TestGateway> {
  const dataDirectory = await mkdtemp(path.join(os.tmpdir(), 'gateway-e2e-'));
  const database = options.database ?? (process.env.GATEWAY_E2E_DATABASE === 'postgres' ? 'postgres' : 'sqlite');
  const postgresDatabase =
    database === 'postgres' ? await requirePostgresDatabase().catch(removeFolderAndRethrow(dataDirectory)) : undefined;
  const config = createTestGatewayConfig(
    {
      dataDirectory,
      databaseUrl: postgresDatabase?.url ?? `sqlite:${path.join(dataDirectory, 'gateway.db')}`,
      secretKey: testSecretKey,
    },
    options.config,
  );
  let running: RunningGateway;
  try {
    running = await startGateway(config, createLogger(config.logLevel), {
      billing: options.billing ?? { enabled: false },
      ...(options.channelHealthClock ? { channelHealthClock: options.channelHealthClock } : {}),
    });
  } catch (error) {
    await removeTestData(dataDirectory, postgresDatabase);
    throw error;
  }
  const secretBox = createSecretBox(resolveSecretPassphrase(config));
  const { store } = running;
  const refreshRouting = () => running.routing.refresh();

  const createUser = (role: UserRecord['role'] = 'user') =>
    store.createUser({
      email: `${uniqueName('user')}@example.test`,
      displayName: 'Test user',
      role,
      passwordHash: null,
    });
  const createGroup = (models: string[]) =>
    store.createModelGroup({ name: uniqueName('group'), description: 'end-to-end test group', models });
  const defaultUser = await createUser('admin');

  return {
    url: running.url,
    baseURL: `${running.url}/v1`,
    store,
    running,
    config,
    secretBox,
    defaultUser,
    createUser,
    createGroup,
    async createChannel(channel) {
      const created = await store.createChannel({
        name: channel.name ?? uniqueName('channel'),
        protocol: channel.protocol ?? 'openai',
        preset: channel.preset ?? null,
        ...(channel.settings ? { settings: channel.settings } : {}),
        baseUrl: channel.baseUrl,
        encryptedSecret: secretBox.encrypt(channel.secret),
        models: channel.models,
        modelMapping: channel.modelMapping ?? {},
        priority: channel.priority ?? 0,
        weight: channel.weight ?? 1,
      });
      if (channel.refreshRouting !== false) await refreshRouting();
      return created;
    },
    async createKey(key = {}) {
      const group = key.group ?? (await createGroup(key.models ?? ['*']));
      const secret = generateApiKeySecret();
      const record = await store.createApiKey({
        userId: (key.user ?? defaultUser).id,
        groupId: group.id,
        name: uniqueName('key'),
        keyHash: hashApiKeySecret(secret),
        keyPrefix: displayPrefixOf(secret),
        expiresAt: key.expiresAt ?? null,
      });
      if (key.refreshRouting !== false) await refreshRouting();
      return { secret, record };
    },
    refreshRouting,
    async close() {
      // Every test is done by now. An SDK client may still hold a connection it opened but never used; Node counts
      // such a silent connection as a request awaiting headers, so a graceful close would wait for the client to drop it.
      running.app.server.closeAllConnections();
      await running.close();
      await removeTestData(dataDirectory, postgresDatabase);
    },
  };
}

/** An SDK client that talks to the test gateway with the given key and never retries on its own. */
export function createOpenAiClient(gateway: Pick<TestGateway, 'baseURL'>, apiKey: string): OpenAI {
  return new OpenAI({ apiKey, baseURL: gateway.baseURL, maxRetries: 0, timeout: 20_000 });
}

/** A response read whole, for what the SDK hides: raw bytes, status and headers of odd requests. */
export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** the body parsed as JSON */
  json(): unknown;
}

/** One raw HTTP request to the gateway; `apiKey` becomes the bearer header unless `headers` say otherwise. */
export async function sendRawRequest(
  gateway: Pick<TestGateway, 'url'>,
  options: {
    path: string;
    method?: 'GET' | 'POST';
    apiKey?: string;
    headers?: Record<string, string>;
    body?: string | Buffer | FormData;
  },
): Promise<RawResponse> {
  const headers: Record<string, string> = options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {};
  const response = await request(gateway.url + options.path, {
    method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
    headers: { ...headers, ...options.headers },
    body: options.body,
    dispatcher: undiciTestAgent,
  });
  const text = await response.body.text();
  return { status: response.statusCode, headers: response.headers, text, json: () => JSON.parse(text) as unknown };
}

/** POSTs a JSON body with the key, as an SDK would, and reads the answer whole. */
export function postRawJson(
  gateway: Pick<TestGateway, 'url'>,
  apiKey: string,
  path: string,
  body: unknown,
): Promise<RawResponse> {
  return sendRawRequest(gateway, {
    path,
    apiKey,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** The `data:` payloads of a server-sent-event stream, in order (`[DONE]` kept as the string it is). */
export function readEventData(streamText: string): string[] {
  return streamText
    .split('\n\n')
    .filter((event) => event.startsWith('data: '))
    .map((event) => event.slice('data: '.length));
}

async function requirePostgresDatabase(): Promise<PostgresTestDatabase> {
  const database = await createPostgresTestDatabaseUrl();
  if (!database)
    throw new Error(
      'A postgres test gateway needs GATEWAY_TEST_POSTGRES_URL (see test/helpers/postgres-test-database.ts)',
    );
  return database;
}

function removeFolderAndRethrow(dataDirectory: string): (error: unknown) => Promise<never> {
  return async (error) => {
    await rm(dataDirectory, { recursive: true, force: true });
    throw error;
  };
}

async function removeTestData(
  dataDirectory: string,
  postgresDatabase: PostgresTestDatabase | undefined,
): Promise<void> {
  await rm(dataDirectory, { recursive: true, force: true });
  await postgresDatabase?.drop();
}
