// The gateway in a process of its own, as `gateway start` runs it (billing on), seeded for the robustness tests:
// one channel to the upstream named in the environment, a funded key, a key of a user without balance, and a
// console user with a password. Prints one `READY <json>` line (see GatewayProcessSeed) once it listens.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { displayPrefixOf, generateApiKeySecret, hashApiKeySecret } from '../../../src/accounts/api-key-secret.js';
import { hashPassword } from '../../../src/accounts/password-hash.js';
import { createSecretBox, resolveSecretPassphrase } from '../../../src/accounts/secret-box.js';
import { loadGatewayConfig } from '../../../src/config/gateway-config.js';
import { createLogger } from '../../../src/observability/create-logger.js';
import { startGateway, type RunningGateway } from '../../../src/runtime/start-gateway.js';
import type { UserRecord } from '../../../src/storage/store-records.js';
import type { GatewayProcessSeed } from './gateway-process-seed.js';

const upstreamUrl = requireEnvironment('ROBUSTNESS_UPSTREAM_URL');
const upstreamSecret = requireEnvironment('ROBUSTNESS_UPSTREAM_SECRET');
const models = requireEnvironment('ROBUSTNESS_MODELS').split(',');
const consolePassword = 'correct horse battery staple';

const dataDirectory = await mkdtemp(path.join(os.tmpdir(), 'gateway-robustness-'));
const config = loadGatewayConfig({
  GATEWAY_DATA_DIR: dataDirectory,
  GATEWAY_HOST: '127.0.0.1',
  GATEWAY_PORT: '0',
  GATEWAY_LOG_LEVEL: 'error',
  GATEWAY_SECRET_KEY: 'robustness-test-secret-key-of-32-bytes-or-more',
  ...process.env,
});
const running = await startGateway(config, createLogger(config.logLevel));
const seed = await seedGateway(running);
process.stdout.write(`READY ${JSON.stringify(seed)}\n`);

const stop = (): void => {
  running
    .close()
    .then(() => rm(dataDirectory, { recursive: true, force: true }))
    .then(
      () => process.exit(0),
      () => process.exit(1),
    );
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);

async function seedGateway(gateway: RunningGateway): Promise<GatewayProcessSeed> {
  const { store, billing } = gateway;
  const secretBox = createSecretBox(resolveSecretPassphrase(config));
  await billing.exclusive(() =>
    store.createChannel({
      name: 'simulator',
      protocol: 'openai',
      preset: null,
      baseUrl: upstreamUrl,
      encryptedSecret: secretBox.encrypt(upstreamSecret),
      models,
      modelMapping: {},
      priority: 0,
      weight: 1,
    }),
  );
  const group = await billing.exclusive(() =>
    store.createModelGroup({ name: 'robustness', description: 'robustness tests', models: ['*'] }),
  );
  const createUser = (email: string, passwordHash: string | null): Promise<UserRecord> =>
    billing.exclusive(() => store.createUser({ email, displayName: 'Robustness test', role: 'user', passwordHash }));
  const createKey = async (user: UserRecord): Promise<string> => {
    const secret = generateApiKeySecret();
    await billing.exclusive(() =>
      store.createApiKey({
        userId: user.id,
        groupId: group.id,
        name: 'robustness',
        keyHash: hashApiKeySecret(secret),
        keyPrefix: displayPrefixOf(secret),
        expiresAt: null,
      }),
    );
    return secret;
  };
  const fundedUser = await createUser('funded@example.test', null);
  const brokeUser = await createUser('broke@example.test', null);
  const consoleUser = await createUser('console@example.test', await hashPassword(consolePassword));
  const fundedKey = await createKey(fundedUser);
  const brokeKey = await createKey(brokeUser);
  await billing.changeBalance({
    userId: fundedUser.id,
    kind: 'top-up',
    amount: 1_000_000_000_000,
    description: 'robustness tests',
  });
  await gateway.routing.refresh();
  await billing.refresh(true);
  return {
    url: gateway.url,
    port: Number(new URL(gateway.url).port),
    fundedKey,
    brokeKey,
    consoleEmail: consoleUser.email,
    consolePassword,
  };
}

function requireEnvironment(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} must be set`);
  return value;
}
