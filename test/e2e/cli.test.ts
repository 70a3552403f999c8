import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadGatewayConfig } from '../../src/config/gateway-config.js';
import { createLogger } from '../../src/observability/create-logger.js';
import { startGateway, type RunningGateway } from '../../src/runtime/start-gateway.js';
import { createOpenAiClient } from '../helpers/start-test-gateway.js';
import { startOpenAiSimulator, type OpenAiSimulator } from '../simulators/openai-simulator.js';

const runFile = promisify(execFile);
const projectDirectory = fileURLToPath(new URL('../..', import.meta.url));
const cliEntry = path.join(projectDirectory, 'src/cli/main.ts');
const channelSecret = 'sk-upstream-cli-channel-secret';
const adminEmail = 'ops@example.test';

let simulator: OpenAiSimulator;
let dataDirectory: string;
let gateway: RunningGateway | undefined;
let startedChild: ChildProcess | undefined;

/** The environment of CLI runs: this machine's, minus any GATEWAY_* setting, plus the test's data folder. */
function cliEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('GATEWAY_')));
  // Billing is off: these tests are about configuring and serving, not about balances.
  return {
    ...inherited,
    GATEWAY_DATA_DIR: dataDirectory,
    GATEWAY_LOG_LEVEL: 'silent',
    GATEWAY_BILLING: 'off',
    UPSTREAM_API_KEY: channelSecret,
    ...extra,
  };
}

/** Runs `gateway <arguments>` from source; resolves with its output, rejects with its exit code and stderr. */
function runCli(cliArguments: string[]): Promise<{ stdout: string; stderr: string }> {
  return runFile(process.execPath, ['--import', 'tsx', cliEntry, ...cliArguments], {
    cwd: projectDirectory,
    env: cliEnvironment(),
    timeout: 30_000,
  });
}

async function runCliForJson<Result>(cliArguments: string[]): Promise<Result> {
  const { stdout } = await runCli([...cliArguments, '--json']);
  return JSON.parse(stdout) as Result;
}

/** Starts `gateway start` as a child process and resolves with the URL from its "gateway listening" log line. */
function startGatewayProcess(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', cliEntry, 'start', '--port', '0', '--host', '127.0.0.1'], {
    cwd: projectDirectory,
    env: cliEnvironment({ GATEWAY_LOG_LEVEL: 'info' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  startedChild = child;
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const entry = parseLogLine(line);
      if (typeof entry?.url === 'string') resolve({ child, url: entry.url });
    });
    child.once('exit', (code) => reject(new Error(`gateway start exited with code ${String(code)} before listening`)));
  });
}

function parseLogLine(line: string): Record<string, unknown> | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

function exitCodeOf(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

interface CreatedKey {
  id: string;
  key: string;
  keyPrefix: string;
  /** true when creating the key granted its group to the user */
  grantedGroup: boolean;
}

let createdKey: CreatedKey;

beforeAll(async () => {
  simulator = await startOpenAiSimulator({ apiKey: channelSecret });
  dataDirectory = await mkdtemp(path.join(os.tmpdir(), 'gateway-cli-e2e-'));
});

afterAll(async () => {
  if (startedChild && startedChild.exitCode === null) startedChild.kill('SIGKILL');
  await gateway?.close();
  await simulator?.close();
  await rm(dataDirectory, { recursive: true, force: true });
});

describe('the gateway command line', () => {
  it('creates an admin, a group, a channel and a key that a gateway on the same data folder then serves', async () => {
    // The first command creates the database; the next two are independent and run side by side to save time.
    const admin = await runCliForJson<{ email: string; role: string; passwordHash?: unknown }>([
      'admin',
      'create',
      '--email',
      adminEmail,
    ]);
    expect(admin).toMatchObject({ email: adminEmail, role: 'admin' });
    expect(admin).not.toHaveProperty('passwordHash');

    const [group, channelOutput] = await Promise.all([
      runCliForJson<{ name: string; models: string[] }>([
        'group',
        'create',
        'team',
        '--models',
        'gpt-4o,text-embedding-3-small',
      ]),
      runCli([
        'channel',
        'create',
        '--name',
        'simulator',
        '--base-url',
        simulator.url,
        '--secret-env',
        'UPSTREAM_API_KEY',
        '--models',
        'gpt-4o,text-embedding-3-small,gpt-3.5-turbo',
        '--map',
        'gpt-4o=gpt-4o-2024-08-06',
        '--json',
      ]),
    ]);
    expect(group).toMatchObject({ name: 'team', models: ['gpt-4o', 'text-embedding-3-small'] });
    expect(channelOutput.stdout).not.toContain(channelSecret);
    expect(JSON.parse(channelOutput.stdout)).toMatchObject({
      name: 'simulator',
      modelMapping: { 'gpt-4o': 'gpt-4o-2024-08-06' },
    });
    expect(JSON.parse(channelOutput.stdout)).not.toHaveProperty('encryptedSecret');

    createdKey = await runCliForJson<CreatedKey>(['key', 'create', '--user', adminEmail, '--group', 'team']);
    expect(createdKey.key).toMatch(/^sk-gw-/);
    expect(createdKey.key.startsWith(createdKey.keyPrefix)).toBe(true);
    // The admin was created before any group existed, so the key's group was granted with the key.
    expect(createdKey.grantedGroup).toBe(true);

    // Same data folder and no GATEWAY_SECRET_KEY: the gateway must read the secret key file the CLI generated.
    const config = loadGatewayConfig({
      GATEWAY_DATA_DIR: dataDirectory,
      GATEWAY_PORT: '0',
      GATEWAY_HOST: '127.0.0.1',
      GATEWAY_LOG_LEVEL: 'silent',
    });
    gateway = await startGateway(config, createLogger(config.logLevel), { billing: { enabled: false } });
    const client = createOpenAiClient({ baseURL: `${gateway.url}/v1` }, createdKey.key);
    const completion = await client.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'configured by the cli' }],
    });
    expect(completion.choices[0]?.message.content).toBe('Echo: configured by the cli');
    expect(simulator.requests.at(-1)).toMatchObject({
      headers: { authorization: `Bearer ${channelSecret}` },
      body: { model: 'gpt-4o-2024-08-06' },
    });

    const modelIds: string[] = [];
    for await (const model of client.models.list()) modelIds.push(model.id);
    expect(modelIds.sort()).toEqual(['gpt-4o', 'text-embedding-3-small']);
    // Four CLI processes one after another (about 7 s alone) took over 30 s once beside the whole suite on two cores; the
    // tests after it then ran while its last command was still migrating the new database.
  }, 90_000);

  // Independent read-only checks run side by side: each CLI run spends about two seconds starting up.
  // Four CLI processes at once: on a busy 2-core machine each may take well over ten seconds to start.
  describe.concurrent('checks that change nothing', { timeout: 90_000 }, () => {
    it('lists channels without their secrets', async () => {
      const { stdout } = await runCli(['channel', 'list', '--json']);
      expect(stdout).toContain('simulator');
      expect(stdout).not.toContain(channelSecret);
      expect(stdout).not.toContain('encryptedSecret');
    });

    it('lists keys without the key or its hash', async () => {
      const { stdout } = await runCli(['key', 'list', '--json']);
      expect(stdout).toContain(createdKey.id);
      expect(stdout).not.toContain(createdKey.key);
      expect(stdout).not.toContain('keyHash');
    });

    it('fails with exit code 1 and a clear message for a key in a group that does not exist', async () => {
      const failure = await runCli(['key', 'create', '--user', adminEmail, '--group', 'no-such-group']).then(
        () => undefined,
        (caught: unknown) => caught as { code?: number; stderr?: string },
      );
      expect(failure?.code).toBe(1);
      expect(failure?.stderr).toContain('No group named no-such-group');
    });

    it('refuses a channel whose protocol the gateway does not speak, naming the ones it does', async () => {
      const failure = await runCli([
        'channel',
        'create',
        '--name',
        'typo',
        '--protocol',
        'open-ai',
        '--base-url',
        'http://127.0.0.1:9/v1',
        '--secret',
        'x',
        '--models',
        'gpt-4o',
      ]).then(
        () => undefined,
        (caught: unknown) => caught as { code?: number; stderr?: string },
      );
      expect(failure?.code).toBe(1);
      expect(failure?.stderr).toContain(
        'Unknown protocol open-ai; use one of openai, azure, anthropic, gemini, bedrock',
      );
    });
  });

  it('runs "gateway start" as a process that serves the key, then exits with code 0 on SIGTERM', async () => {
    const { child, url } = await startGatewayProcess();
    const client = createOpenAiClient({ baseURL: `${url}/v1` }, createdKey.key);
    const completion = await client.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'from the started process' }],
    });
    expect(completion.choices[0]?.message.content).toBe('Echo: from the started process');
    child.kill('SIGTERM');
    expect(await exitCodeOf(child)).toBe(0);
  });

  // Five CLI processes, each compiling the sources with tsx: on a busy 2-core machine each takes several seconds.
  it("revokes and grants groups, stopping and restarting the user's keys, and gives new users the default groups", async () => {
    const client = createOpenAiClient({ baseURL: `${gateway!.url}/v1` }, createdKey.key);
    const revoke = await runCli(['user', 'revoke', '--email', adminEmail, '--groups', 'team']);
    expect(revoke.stdout).toContain(`Revoked team from ${adminEmail}`);
    await gateway!.routing.refresh();
    await expect(client.models.list()).rejects.toBeInstanceOf(OpenAI.AuthenticationError);

    const [grant] = await Promise.all([
      runCli(['user', 'grant', '--email', adminEmail, '--groups', 'team']),
      runCli(['group', 'create', 'default', '--models', 'gpt-4o']),
    ]);
    expect(grant.stdout).toContain(`Granted team to ${adminEmail}`);
    await gateway!.routing.refresh();
    expect((await client.models.list()).data.length).toBeGreaterThan(0);

    const created = await runCliForJson<{ groups: string[] }>(['user', 'create', '--email', 'newcomer@example.test']);
    expect(created.groups).toEqual(['default']);
    const held = await runCliForJson<Array<{ name: string }>>(['user', 'groups', '--email', 'newcomer@example.test']);
    expect(held.map((group) => group.name)).toEqual(['default']);
  }, 90_000);

  it('disables a key for a running gateway once it reloads', async () => {
    await runCli(['key', 'disable', createdKey.id]);
    await gateway!.routing.refresh();
    const client = createOpenAiClient({ baseURL: `${gateway!.url}/v1` }, createdKey.key);
    const error = await client.models.list().then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
  });
});
