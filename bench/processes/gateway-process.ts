// Child process: the gateway as `gateway start` runs it (billing and metrics on), with a temporary SQLite database
// holding one user with a large balance and request limits, a default price for the simulator's made-up models, one
// group, one channel (the simulator) and one key, all created through the store, the billing runtime and the secret box.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { displayPrefixOf, generateApiKeySecret, hashApiKeySecret } from '../../src/accounts/api-key-secret.js';
import { createSecretBox, resolveSecretPassphrase } from '../../src/accounts/secret-box.js';
import { defaultPriceModelId } from '../../src/billing/default-price-model-id.js';
import { parseCurrencyAmount } from '../../src/billing/money.js';
import { loadGatewayConfig } from '../../src/config/gateway-config.js';
import { createLogger } from '../../src/observability/create-logger.js';
import { startGateway, type RunningGateway } from '../../src/runtime/start-gateway.js';
import { answerControlMessages, failStartup, sendToHarness } from './answer-control-messages.js';

try {
  const upstreamUrl = requireEnvironment('BENCH_UPSTREAM_URL');
  const upstreamKey = requireEnvironment('BENCH_UPSTREAM_KEY');
  const models = requireEnvironment('BENCH_MODELS').split(',');
  const dataDirectory = mkdtempSync(path.join(tmpdir(), 'gateway-bench-'));
  // The harness's own settings (GATEWAY_UPSTREAM_CONNECTIONS, ...) arrive through the environment like any user's.
  const config = loadGatewayConfig({
    ...process.env,
    GATEWAY_DATA_DIR: dataDirectory,
    GATEWAY_HOST: '127.0.0.1',
    GATEWAY_PORT: '0',
    GATEWAY_LOG_LEVEL: 'warn',
    // The repository's built console (the harness starts this process in the repository's root), served as `npm start`
    // serves it; the default is found beside the gateway's own files, which this compiled copy is not.
    GATEWAY_CONSOLE_DIR: process.env.GATEWAY_CONSOLE_DIR ?? path.resolve('dist/console'),
  });
  // bench:instructions writes every batch full (256 requests), so each request pays the same share of a COMMIT.
  const settlementIntervalMs = Number(process.env.BENCH_SETTLEMENT_INTERVAL_MS ?? 0);
  const gateway = await startGateway(
    config,
    createLogger(config.logLevel),
    settlementIntervalMs > 0 ? { billing: { flushIntervalMs: settlementIntervalMs } } : {},
  );
  const apiKey = await seedGateway(gateway, {
    upstreamUrl,
    upstreamKey,
    models,
    secretBox: createSecretBox(resolveSecretPassphrase(config)),
  });
  answerControlMessages(async () => {
    await gateway.close();
    rmSync(dataDirectory, { recursive: true, force: true });
  });
  sendToHarness({
    type: 'ready',
    url: gateway.url,
    details: {
      apiKey,
      upstreamConnectionsPerOrigin: String(config.upstreamConnectionsPerOrigin),
      refreshIntervalMs: String(config.refreshIntervalMs),
    },
  });
} catch (error) {
  failStartup(error);
}

/** Creates the user (with a balance no run can exhaust), group, channel and key, reloads routing, and returns the key's secret. */
async function seedGateway(
  gateway: RunningGateway,
  seed: { upstreamUrl: string; upstreamKey: string; models: string[]; secretBox: ReturnType<typeof createSecretBox> },
): Promise<string> {
  const { store } = gateway;
  const user = await store.createUser({
    email: 'bench@example.com',
    displayName: 'Benchmark',
    role: 'user',
    passwordHash: null,
  });
  await gateway.billing.changeBalance({
    userId: user.id,
    kind: 'top-up',
    amount: parseCurrencyAmount('1000000'),
    description: 'benchmark balance',
  });
  // Limits as a real deployment sets them (requests and tokens per minute, requests at once), high enough never to
  // refuse the benchmark's load but checked and counted on every request.
  await gateway.billing.exclusive(() =>
    gateway.billing.store.setUserLimits(user.id, {
      requestsPerMinute: 100_000_000,
      tokensPerMinute: 100_000_000_000,
      maxConcurrentRequests: 100_000,
    }),
  );
  // The simulator's made-up models (`bench-model`, `sim-paced-...`) have no catalog price: without the operator's default
  // price `*` they would be refused (404 model_not_found). 1 and 2 per million tokens, 0.04 an image, 0.006 an audio
  // minute, 0.1 a video second: the prices they were billed at before unpriced models were refused.
  await gateway.billing.exclusive(() =>
    gateway.billing.store.setModelPrice({
      modelId: defaultPriceModelId,
      inputPerMillion: 1_000_000,
      cachedInputPerMillion: 1_000_000,
      cacheWritePerMillion: 1_000_000,
      outputPerMillion: 2_000_000,
      imagePrices: { default: 40_000 },
      audioPerMinute: 6_000,
      videoPerSecond: 100_000,
    }),
  );
  await gateway.billing.announceChange();
  await gateway.billing.refresh(true);
  const group = await store.createModelGroup({ name: 'bench', description: 'benchmark models', models: seed.models });
  await store.createChannel({
    name: 'simulator',
    protocol: 'openai',
    preset: null,
    baseUrl: seed.upstreamUrl,
    encryptedSecret: seed.secretBox.encrypt(seed.upstreamKey),
    models: seed.models,
    modelMapping: {},
    priority: 0,
    weight: 1,
  });
  const secret = generateApiKeySecret();
  await store.createApiKey({
    userId: user.id,
    groupId: group.id,
    name: 'bench',
    keyHash: hashApiKeySecret(secret),
    keyPrefix: displayPrefixOf(secret),
    expiresAt: null,
  });
  await gateway.routing.refresh();
  return secret;
}

function requireEnvironment(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}
