// Starts a real gateway with billing on, a simulator channel, and helpers for users, keys and money.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { displayPrefixOf, generateApiKeySecret, hashApiKeySecret } from '../../src/accounts/api-key-secret.js';
import { createSecretBox, resolveSecretPassphrase } from '../../src/accounts/secret-box.js';
import type { BillingConfig } from '../../src/billing/billing-config.js';
import type { PaymentConfig } from '../../src/accounts/payments/payment-config.js';
import type { ModelPrice } from '../../src/billing/model-price.js';
import type { GatewayConfig } from '../../src/config/gateway-config.js';
import { startGateway, type RunningGateway } from '../../src/runtime/start-gateway.js';
import type { UserRecord } from '../../src/storage/store-records.js';
import { startOpenAiSimulator, type OpenAiSimulator } from '../simulators/openai-simulator.js';
import { createTestGatewayConfig } from '../helpers/create-test-gateway-config.js';

/** A price of one micro-unit per token in and out, so costs equal token counts. */
export function createUnitPrice(modelId: string): ModelPrice {
  return {
    modelId,
    inputPerMillion: 1_000_000,
    cachedInputPerMillion: 1_000_000,
    cacheWritePerMillion: 1_000_000,
    outputPerMillion: 1_000_000,
    imagePrices: { default: 1_000 },
    audioPerMinute: 60_000,
    videoPerSecond: 0,
  };
}

/** A running billed gateway and its upstream simulator. */
export interface BillingTestGateway {
  url: string;
  baseURL: string;
  running: RunningGateway;
  simulator: OpenAiSimulator;
  dataDirectory: string;
  databaseUrl: string;
  createUser(role?: UserRecord['role'], password?: string): Promise<UserRecord>;
  /** a key for the user in a new group serving every model */
  createKey(user: UserRecord): Promise<{ secret: string; apiKeyId: string; groupId: string }>;
  /** a model group serving every model, made the way the /api makes records */
  createGroup(): Promise<{ id: string; name: string }>;
  /** another channel of any protocol (Anthropic, Gemini, Bedrock, ...); `models` maps public ids to the vendor's names */
  createChannel(channel: BillingTestChannel): Promise<void>;
  /** credits micro-units durably, as an admin top-up does */
  topUp(user: UserRecord, amount: number): Promise<void>;
  client(secret: string): OpenAI;
  close(): Promise<void>;
}

/** A channel seeded by `createChannel`. */
export interface BillingTestChannel {
  /** `openai`, `anthropic`, `gemini`, `bedrock`, ... */
  protocol: string;
  /** the vendor's base URL, version prefix included */
  baseUrl: string;
  secret: string;
  /** public model id → the vendor's model name; the keys are the models the channel serves */
  models: Record<string, string>;
  /** higher is tried first; default 0 */
  priority?: number;
  /** protocol settings, e.g. `{ region: 'us-east-1' }` */
  settings?: Record<string, string>;
}

let counter = 0;

/** The secret key the billing test gateway seals channel secrets with. */
export const billingTestSecretKey = 'billing-test-secret-key-of-32-bytes-or-more';

/** Starts the simulator and a gateway in a temporary folder; every model is served by the simulator. */
export async function startBillingTestGateway(options: {
  models: string[];
  billing?: Partial<BillingConfig>;
  prices?: ModelPrice[];
  /** use this database (e.g. PostgreSQL, or another node's) instead of a new SQLite file */
  databaseUrl?: string;
  /** configuration values to use instead of the test defaults, e.g. a short upstream timeout */
  config?: Partial<GatewayConfig>;
  /** top-up settings, e.g. providers pointed at loopback fakes */
  payments?: Partial<PaymentConfig>;
}): Promise<BillingTestGateway> {
  const simulator = await startOpenAiSimulator();
  const dataDirectory = await mkdtemp(path.join(os.tmpdir(), 'gateway-billing-'));
  const databaseUrl = options.databaseUrl ?? `sqlite:${path.join(dataDirectory, 'gateway.db')}`;
  const config = createTestGatewayConfig(
    { dataDirectory, databaseUrl, secretKey: billingTestSecretKey },
    { upstreamConnectionsPerOrigin: 64, ...options.config },
  );
  const { createLogger } = await import('../../src/observability/create-logger.js');
  const running = await startGateway(config, createLogger('silent'), {
    billing: { enabled: true, ...options.billing },
    payments: { sweepIntervalMs: 0, ...options.payments },
  });
  const secretBox = createSecretBox(resolveSecretPassphrase(config));
  const { store, billing } = running;
  // Seeding goes through billing.exclusive, as the /api does, so it never interleaves with a batch write.
  await billing.exclusive(() =>
    store.createChannel({
      name: `sim-${++counter}`,
      protocol: 'openai',
      preset: null,
      baseUrl: simulator.url,
      encryptedSecret: secretBox.encrypt('upstream'),
      models: options.models,
      modelMapping: {},
      priority: 0,
      weight: 1,
    }),
  );
  for (const price of options.prices ?? []) await billing.exclusive(() => billing.store.setModelPrice(price));
  await running.routing.refresh();
  await billing.refresh(true);

  return {
    url: running.url,
    baseURL: `${running.url}/v1`,
    running,
    simulator,
    dataDirectory,
    databaseUrl,
    async createUser(role = 'user', password) {
      const { hashPassword } = await import('../../src/accounts/password-hash.js');
      const passwordHash = password ? await hashPassword(password) : null;
      const user = await billing.exclusive(() =>
        store.createUser({
          email: `user-${process.pid}-${++counter}@example.test`,
          displayName: 'Billing test',
          role,
          passwordHash,
        }),
      );
      await billing.refresh(true);
      return user;
    },
    async createKey(user) {
      const secret = generateApiKeySecret();
      const { group, key } = await billing.exclusive(async () => {
        const group = await store.createModelGroup({
          name: `group-${process.pid}-${++counter}`,
          description: '',
          models: ['*'],
        });
        const key = await store.createApiKey({
          userId: user.id,
          groupId: group.id,
          name: 'test',
          keyHash: hashApiKeySecret(secret),
          keyPrefix: displayPrefixOf(secret),
          expiresAt: null,
        });
        return { group, key };
      });
      await running.routing.refresh();
      await billing.refresh(true);
      return { secret, apiKeyId: key.id, groupId: group.id };
    },
    createGroup: () =>
      billing.exclusive(() =>
        store.createModelGroup({ name: `group-${process.pid}-${++counter}`, description: '', models: ['*'] }),
      ),
    async createChannel(channel) {
      await billing.exclusive(() =>
        store.createChannel({
          name: `${channel.protocol}-${process.pid}-${++counter}`,
          protocol: channel.protocol,
          preset: null,
          baseUrl: channel.baseUrl,
          encryptedSecret: secretBox.encrypt(channel.secret),
          models: Object.keys(channel.models),
          modelMapping: channel.models,
          priority: channel.priority ?? 0,
          weight: 1,
          settings: channel.settings ?? {},
        }),
      );
      await running.routing.refresh();
    },
    async topUp(user, amount) {
      await billing.changeBalance({ userId: user.id, kind: 'top-up', amount, description: 'test top-up' });
    },
    client: (secret) => new OpenAI({ apiKey: secret, baseURL: `${running.url}/v1`, maxRetries: 0, timeout: 20_000 }),
    async close() {
      await running.close();
      await simulator.close();
      await rm(dataDirectory, { recursive: true, force: true });
    },
  };
}

/**
 * Waits until every request admitted for the user has been settled on each node (nothing left held), then
 * flushes their batch writers. A client can hold its answer a moment before the gateway settles it.
 */
export async function settleEverything(runtimes: RunningGateway[], userId: string): Promise<void> {
  for (
    let attempt = 0;
    attempt < 200 && runtimes.some((running) => running.billing.memory.user(userId).held > 0);
    attempt++
  ) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  for (const running of runtimes) {
    // With Redis a request's hold is released before its settlement reaches the batch; wait for that too.
    await running.billing.settlementsQueued();
    await running.billing.writer.flush();
  }
}
