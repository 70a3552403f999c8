// Starts a real gateway for the contract suite and seeds channels of any protocol (with settings) and keys through its store.
// Kept apart from test/helpers/start-test-gateway.ts (another suite's helper), which only makes OpenAI channels.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { displayPrefixOf, generateApiKeySecret, hashApiKeySecret } from '../../src/accounts/api-key-secret.js';
import { createSecretBox, resolveSecretPassphrase } from '../../src/accounts/secret-box.js';
import type { GatewayConfig } from '../../src/config/gateway-config.js';
import { startGateway, type RunningGateway } from '../../src/runtime/start-gateway.js';
import { createTestGatewayConfig } from '../helpers/create-test-gateway-config.js';

/** A channel to seed. */
export interface ContractChannelOptions {
  /** `openai`, `anthropic`, `gemini`, `bedrock`, ... */
  protocol: string;
  /** the simulator's base URL, version prefix included */
  baseUrl: string;
  secret: string;
  /** public model id → upstream model name; the keys are the models the channel serves */
  models: Record<string, string>;
  /** higher is tried first; default 0 */
  priority?: number;
  /** protocol settings, e.g. `{ apiVersion: '2026-10-21' }` */
  settings?: Record<string, string>;
}

/** A gateway running for the contract suite. */
export interface ContractGateway {
  /** e.g. `http://127.0.0.1:PORT` */
  url: string;
  /** what SDK clients take as `baseURL` */
  baseURL: string;
  running: RunningGateway;
  createChannel(channel: ContractChannelOptions): Promise<void>;
  /** a key allowed to use every model; returns its secret */
  createKey(): Promise<string>;
  close(): Promise<void>;
}

let nameCounter = 0;

/**
 * Starts the gateway as `gateway start` does, on a free port with a temporary SQLite database.
 * Billing is off (every request admitted, nothing recorded): the contract suite tests translation, not money.
 */
export async function startContractGateway(configOverrides: Partial<GatewayConfig> = {}): Promise<ContractGateway> {
  const dataDirectory = await mkdtemp(path.join(os.tmpdir(), 'gateway-contract-'));
  const config = createTestGatewayConfig(
    {
      dataDirectory,
      databaseUrl: `sqlite:${path.join(dataDirectory, 'gateway.db')}`,
      secretKey: 'contract-suite-secret-key-of-32-bytes-or-more',
    },
    // The suite serves its image URLs from loopback, which the default refuses. Without billing nothing needs a stream
    // its client left to be read on for its usage: no drains, so a client's abort reaches the upstream at once.
    { imageFetchAllowPrivateAddresses: true, abandonedStreamDrains: 0, ...configOverrides },
  );
  const running = await startGateway(config, undefined, { billing: { enabled: false } });
  const secretBox = createSecretBox(resolveSecretPassphrase(config));
  const { store } = running;
  const uniqueName = (prefix: string) => `${prefix}-${process.pid}-${++nameCounter}`;
  const user = await store.createUser({
    email: `${uniqueName('contract')}@example.test`,
    displayName: 'Contract suite',
    role: 'admin',
    passwordHash: null,
  });
  return {
    url: running.url,
    baseURL: `${running.url}/v1`,
    running,
    async createChannel(channel) {
      await store.createChannel({
        name: uniqueName(`contract-${channel.protocol}`),
        protocol: channel.protocol,
        preset: null,
        baseUrl: channel.baseUrl,
        encryptedSecret: secretBox.encrypt(channel.secret),
        models: Object.keys(channel.models),
        modelMapping: channel.models,
        priority: channel.priority ?? 0,
        weight: 1,
        settings: channel.settings ?? {},
      });
      await running.routing.refresh();
    },
    async createKey() {
      const group = await store.createModelGroup({
        name: uniqueName('contract-group'),
        description: 'contract suite',
        models: ['*'],
      });
      const secret = generateApiKeySecret();
      await store.createApiKey({
        userId: user.id,
        groupId: group.id,
        name: uniqueName('contract-key'),
        keyHash: hashApiKeySecret(secret),
        keyPrefix: displayPrefixOf(secret),
        expiresAt: null,
      });
      await running.routing.refresh();
      return secret;
    },
    async close() {
      // After the embeddings scenario and then the client-abort one, a finished keep-alive socket stays open
      // without its HTTP parser, which Fastify's idle-only close never closes (reported to the lead); the
      // suite is over, so every connection is closed outright.
      running.app.server.closeAllConnections();
      await running.close();
      await rm(dataDirectory, { recursive: true, force: true });
    },
  };
}
