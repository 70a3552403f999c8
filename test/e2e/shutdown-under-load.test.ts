// `gateway start` stopped by SIGTERM under load: it stops accepting, lets what can finish within
// GATEWAY_SHUTDOWN_GRACE_MS finish, cuts the rest and bills it by the client-abort rule, writes every settlement and
// exits 0. Every request the client saw acknowledged (a 2xx head) has exactly one usage row and one ledger entry, and
// `gateway billing verify` passes. A second signal during the drain ends the process at once with 128 + its number.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Agent, request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { displayPrefixOf, generateApiKeySecret, hashApiKeySecret } from '../../src/accounts/api-key-secret.js';
import { createSecretBox } from '../../src/accounts/secret-box.js';
import type { UsageLogRecord } from '../../src/storage/billing-records.js';
import { createBillingStore } from '../../src/storage/kysely-billing-store.js';
import { createGatewayStore } from '../../src/storage/kysely-gateway-store.js';
import { createUnitPrice } from '../billing/start-billing-test-gateway.js';
import { startOpenAiSimulator, type OpenAiSimulator } from '../simulators/openai-simulator.js';
import { defaultMaxOutputTokens } from '../../src/billing/estimate-worst-case-usage.js';

const secretKey = 'shutdown-under-load-secret-key-of-32-bytes';
const graceMs = 2_000;
/** How long after the grace period the process may take to write its last batch and exit. */
const exitMarginMs = 8_000;
/** Five words 100 ms apart: finishes well inside the grace period. */
const shortModel = 'sim-paced-5x100';
/** Eighty words 100 ms apart (8 s): still running when the grace period ends. */
const longModel = 'sim-paced-80x100';
const quickModel = 'quick-model';
const models = [shortModel, longModel, quickModel, 'sim-hang'];
/** Requests of each kind in flight when the signal comes: short and long, streamed and not (48 at once). */
const requestsPerKind = 12;
/** Workers sending quick non-streamed requests back to back until the gateway stops accepting. */
const quickWorkers = 6;

let simulator: OpenAiSimulator;
let dataDirectory: string;
let child: ChildProcess | undefined;
let agent: Agent;

beforeAll(async () => {
  simulator = await startOpenAiSimulator({ recordRequests: true });
});

afterEach(async () => {
  child?.kill('SIGKILL');
  child = undefined;
  await agent?.close();
  if (dataDirectory) await rm(dataDirectory, { recursive: true, force: true });
});

afterAll(async () => {
  await simulator?.close();
});

interface GatewayChild {
  process: ChildProcess;
  url: string;
  /** everything it wrote to stdout and stderr so far */
  output(): string;
  /** resolves with the exit code (or the signal that ended it) and when it exited, in Unix milliseconds */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
}

function environment(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    GATEWAY_REDIS_URL: '',
    GATEWAY_DATA_DIR: dataDirectory,
    GATEWAY_SECRET_KEY: secretKey,
    GATEWAY_PORT: '0',
    GATEWAY_HOST: '127.0.0.1',
    GATEWAY_LOG_LEVEL: 'info',
    GATEWAY_BILLING: 'on',
    GATEWAY_SHUTDOWN_GRACE_MS: String(graceMs),
    // Every client of this test is one loopback address; the default per-address cap (32) would refuse part of the load.
    GATEWAY_MAX_IN_FLIGHT_PER_ADDRESS: '256',
  };
}

/** Seeds a fresh SQLite database (a funded key, one channel to the simulator, unit prices) and returns the key. */
async function seedDatabase(): Promise<{ apiKey: string; userId: string; databaseUrl: string }> {
  dataDirectory = await mkdtemp(path.join(os.tmpdir(), 'gateway-shutdown-load-'));
  const databaseUrl = `sqlite:${path.join(dataDirectory, 'gateway.db')}`;
  const gatewayStore = createGatewayStore({ databaseUrl });
  await gatewayStore.migrate();
  const billingStore = createBillingStore({ databaseUrl });
  try {
    await billingStore.migrate();
    const user = await gatewayStore.createUser({
      email: 'drain@example.test',
      displayName: 'Drain',
      role: 'user',
      passwordHash: null,
    });
    const group = await gatewayStore.createModelGroup({ name: 'drain', description: '', models: ['*'] });
    const apiKey = generateApiKeySecret();
    await gatewayStore.createApiKey({
      userId: user.id,
      groupId: group.id,
      name: 'drain',
      keyHash: hashApiKeySecret(apiKey),
      keyPrefix: displayPrefixOf(apiKey),
      expiresAt: null,
    });
    await gatewayStore.createChannel({
      name: 'sim',
      protocol: 'openai',
      preset: null,
      baseUrl: simulator.url,
      encryptedSecret: createSecretBox(secretKey).encrypt('x'),
      models,
      modelMapping: {},
      priority: 0,
      weight: 1,
    });
    for (const model of models) await billingStore.setModelPrice(createUnitPrice(model));
    await billingStore.changeBalance({
      userId: user.id,
      kind: 'top-up',
      amount: 1_000_000_000,
      description: 'initial',
    });
    return { apiKey, userId: user.id, databaseUrl };
  } finally {
    await billingStore.close();
    await gatewayStore.close();
  }
}

function startGatewayChild(): Promise<GatewayChild> {
  const started = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'start'], {
    env: environment(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child = started;
  let output = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    started.once('exit', (code, signal) => resolve({ code, signal, at: Date.now() })),
  );
  return new Promise((resolve, reject) => {
    started.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(output);
      if (match) resolve({ process: started, url: match[1]!, output: () => output, exited });
    });
    started.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    void exited.then(({ code }) => reject(new Error(`gateway exited early with ${code}: ${output}`)));
  });
}

/** What the client saw of one request. */
interface ClientOutcome {
  model: string;
  stream: boolean;
  /** the HTTP status of the head, or 0 when the connection failed before one arrived */
  status: number;
  /** the head's `x-request-id` */
  requestId: string | undefined;
  /** true when the body arrived whole (a stream ended with `[DONE]`) */
  complete: boolean;
}

async function sendChat(url: string, apiKey: string, model: string, stream: boolean): Promise<ClientOutcome> {
  let response;
  try {
    response = await request(`${url}/v1/chat/completions`, {
      method: 'POST',
      dispatcher: agent,
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, stream, messages: [{ role: 'user', content: 'count some words for me please' }] }),
    });
  } catch {
    return { model, stream, status: 0, requestId: undefined, complete: false };
  }
  const requestId = typeof response.headers['x-request-id'] === 'string' ? response.headers['x-request-id'] : undefined;
  const text = await response.body.text().catch(() => undefined);
  const complete = text !== undefined && (!stream || text.trimEnd().endsWith('data: [DONE]'));
  return { model, stream, status: response.statusCode, requestId, complete };
}

/** The status of `GET /readyz`, or 0 when no connection could be made. */
async function probeReadiness(url: string): Promise<number> {
  try {
    const response = await request(`${url}/readyz`, { dispatcher: agent });
    await response.body.dump();
    return response.statusCode;
  } catch {
    return 0;
  }
}

async function readAll(databaseUrl: string, userId: string) {
  const store = createBillingStore({ databaseUrl });
  try {
    const logs: UsageLogRecord[] = [];
    let before: { createdAt: number; id: string } | undefined;
    for (;;) {
      const page = await store.listUsageLogs({ userId, limit: 500, before });
      logs.push(...page);
      if (page.length < 500) break;
      const last = page.at(-1)!;
      before = { createdAt: last.createdAt, id: last.id };
    }
    const ledger = await store.listLedgerEntries(userId, { limit: 100_000 });
    return { logs, ledger, mismatches: await store.findBalanceMismatches() };
  } finally {
    await store.close();
  }
}

function runVerify(): Promise<{ code: number; stdout: string }> {
  return promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'billing', 'verify', '--json'], {
    env: environment(),
  }).then(
    (result) => ({ code: 0, stdout: result.stdout }),
    (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
  );
}

describe('gateway start stopped by SIGTERM under load', () => {
  it('finishes or cuts every request, bills each acknowledged one exactly once, and exits 0 within the grace period', async () => {
    const { apiKey, userId, databaseUrl } = await seedDatabase();
    agent = new Agent({ connections: 128 });
    const gateway = await startGatewayChild();
    simulator.reset();

    let accepting = true;
    const quickOutcomes: ClientOutcome[] = [];
    const quickLoad = Array.from({ length: quickWorkers }, async () => {
      while (accepting) {
        const outcome = await sendChat(gateway.url, apiKey, quickModel, false);
        quickOutcomes.push(outcome);
        if (outcome.status !== 200) accepting = false;
      }
    });
    const kinds = [
      { model: shortModel, stream: true },
      { model: shortModel, stream: false },
      { model: longModel, stream: true },
      { model: longModel, stream: false },
    ];
    const inFlight = kinds.flatMap(({ model, stream }) =>
      Array.from({ length: requestsPerKind }, () => sendChat(gateway.url, apiKey, model, stream)),
    );
    // Every slow request reached the vendor: they are all in flight when the signal comes.
    const slowRequests = () =>
      simulator.requests.filter(
        (recorded) =>
          recorded.body !== null &&
          typeof recorded.body === 'object' &&
          'model' in recorded.body &&
          recorded.body.model !== quickModel,
      );
    await vi.waitFor(() => expect(slowRequests()).toHaveLength(kinds.length * requestsPerKind), {
      timeout: 20_000,
      interval: 10,
    });

    expect(await probeReadiness(gateway.url)).toBe(200);

    gateway.process.kill('SIGTERM');
    const signalledAt = Date.now();
    // After the signal a new connection is refused, or told 503 while the listener closes: the node stops accepting,
    // and a readiness probe never sees it ready again.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const late = await sendChat(gateway.url, apiKey, quickModel, false);
    expect([0, 503]).toContain(late.status);
    expect([0, 503]).toContain(await probeReadiness(gateway.url));

    const outcomes = [...(await Promise.all(inFlight)), ...quickOutcomes];
    accepting = false;
    await Promise.all(quickLoad);
    const exit = await gateway.exited;
    child = undefined;

    expect({ code: exit.code, signal: exit.signal }, gateway.output()).toEqual({ code: 0, signal: null });
    expect(exit.at - signalledAt).toBeLessThan(graceMs + exitMarginMs);
    expect(gateway.output()).toContain('shutdown complete');

    // What finished within the grace period finished; what was still running at its end was cut.
    const byKind = (model: string, stream: boolean) =>
      outcomes.filter((outcome) => outcome.model === model && outcome.stream === stream);
    expect(byKind(shortModel, true).map((outcome) => [outcome.status, outcome.complete])).toEqual(
      Array(requestsPerKind).fill([200, true]),
    );
    expect(byKind(shortModel, false).map((outcome) => [outcome.status, outcome.complete])).toEqual(
      Array(requestsPerKind).fill([200, true]),
    );
    expect(byKind(longModel, true).map((outcome) => [outcome.status, outcome.complete])).toEqual(
      Array(requestsPerKind).fill([200, false]),
    );
    expect(byKind(longModel, false).map((outcome) => outcome.status)).toEqual(Array(requestsPerKind).fill(0));

    const { logs, ledger, mismatches } = await readAll(databaseUrl, userId);
    expect(mismatches).toEqual([]);
    const acknowledged = outcomes.filter((outcome) => outcome.status >= 200 && outcome.status < 300);
    expect(acknowledged.length).toBeGreaterThanOrEqual((kinds.length * requestsPerKind) / 2 + requestsPerKind);
    const settlementsByLog = new Map<string, number>();
    for (const entry of ledger)
      if (entry.kind === 'settlement' && entry.reference)
        settlementsByLog.set(entry.reference, (settlementsByLog.get(entry.reference) ?? 0) + 1);
    const unbilled = acknowledged.filter((outcome) => {
      const rows = logs.filter((log) => log.requestId === outcome.requestId);
      return rows.length !== 1 || settlementsByLog.get(rows[0]!.id) !== 1;
    });
    expect(unbilled).toEqual([]);

    // Streams cut at the end of the grace period never got the vendor's usage: they are charged their hold (the
    // estimated input and the whole output allowance), never just the text generated so far.
    const logOf = (outcome: ClientOutcome) => logs.find((log) => log.requestId === outcome.requestId)!;
    for (const outcome of byKind(longModel, true)) {
      const log = logOf(outcome);
      expect([log.status, log.errorCode]).toEqual([499, 'client_closed_request']);
      expect(log.promptTokens).toBeGreaterThan(0);
      expect(log.completionTokens).toBe(defaultMaxOutputTokens);
      expect(log.cost).toBe(log.promptTokens + log.completionTokens);
    }
    for (const outcome of byKind(shortModel, true))
      expect([logOf(outcome).status, logOf(outcome).completionTokens]).toEqual([200, 5]);
    // Non-streamed requests cut while waiting on the vendor have no head, yet are billed once at the estimated input.
    const cutWithoutHead = logs.filter(
      (log) =>
        log.model === longModel &&
        log.status === 499 &&
        !acknowledged.some((outcome) => outcome.requestId === log.requestId),
    );
    expect(cutWithoutHead).toHaveLength(requestsPerKind);
    for (const log of cutWithoutHead)
      expect([log.errorCode, log.completionTokens, log.cost > 0, settlementsByLog.get(log.id)]).toEqual([
        'client_closed_request',
        0,
        true,
        1,
      ]);

    const verify = await runVerify();
    expect(JSON.parse(verify.stdout)).toEqual({
      ok: true,
      mismatches: [],
      orderMismatches: [],
      taskHoldMismatches: [],
    });
    expect(verify.code).toBe(0);
  }, 120_000);

  it('exits at once with 143 and says so when a second SIGTERM comes during the drain', async () => {
    const { apiKey } = await seedDatabase();
    agent = new Agent();
    const gateway = await startGatewayChild();
    simulator.reset();
    const stuck = sendChat(gateway.url, apiKey, 'sim-hang', false);
    await vi.waitFor(() => expect(simulator.requests).toHaveLength(1), { timeout: 10_000, interval: 10 });

    gateway.process.kill('SIGTERM');
    await vi.waitFor(() => expect(gateway.output()).toContain('shutting down'), { timeout: 10_000, interval: 10 });
    gateway.process.kill('SIGTERM');
    const exit = await gateway.exited;
    child = undefined;

    expect({ code: exit.code, signal: exit.signal }).toEqual({ code: 143, signal: null });
    expect(gateway.output()).toContain('second signal during shutdown');
    expect(gateway.output()).not.toContain('shutdown complete');
    expect((await stuck).status).toBe(0);
  }, 60_000);
});
