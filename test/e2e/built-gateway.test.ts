// The gateway as `npm run build` bundles it (scripts/bundle-gateway.ts, ADR 0014), built here from the current source
// with the same function: configured through its own command line, started as `npm start` starts it, and used with the
// OpenAI SDK. A bundle that cannot find its worker threads, a package it leaves in node_modules, or the console beside
// it fails here, where the other end-to-end tests (which run the source) cannot see it.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readGatewayLaunch } from '../../bench/read-gateway-launch.js';
import { bundleGateway, workerThreadEntries } from '../../scripts/bundle-gateway.js';
import { countTextTokens } from '../../src/billing/count-text-tokens.js';
import { createWav } from '../helpers/create-wav.js';
import { TokenizerWorkerClient } from '../../src/billing/tokenizer-worker/tokenizer-worker-client.js';
import { createOpenAiClient } from '../helpers/start-test-gateway.js';
import { startOpenAiSimulator, type OpenAiSimulator } from '../simulators/openai-simulator.js';

const runFile = promisify(execFile);
const projectDirectory = fileURLToPath(new URL('../..', import.meta.url));
// Inside the project, so the packages the bundle leaves out resolve from its node_modules as they do for dist/.
const buildRoot = path.join(projectDirectory, 'node_modules/.cache', `gateway-built-test-${process.pid}`);
const bundleDirectory = path.join(buildRoot, 'dist/gateway');
const consoleMarker = 'console beside the bundle';
const channelSecret = 'sk-upstream-built-gateway-secret';
const adminEmail = 'ops@example.test';

let simulator: OpenAiSimulator;
let dataDirectory: string;
let startedChild: ChildProcess | undefined;

function environment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('GATEWAY_')));
  return {
    ...inherited,
    GATEWAY_DATA_DIR: dataDirectory,
    GATEWAY_LOG_LEVEL: 'silent',
    UPSTREAM_API_KEY: channelSecret,
    ...extra,
  };
}

/** Runs the bundled `gateway <arguments> --json` and parses what it prints. */
async function runBundledCli<Result>(cliArguments: string[]): Promise<Result> {
  const { stdout } = await runFile(
    process.execPath,
    [path.join(bundleDirectory, 'main.js'), ...cliArguments, '--json'],
    { env: environment(), timeout: 30_000 },
  );
  return JSON.parse(stdout) as Result;
}

// Prints, as the process exits, the Node built-in modules it loaded.
const reportBuiltInModules = `data:text/javascript,process.on('exit', () => process.stderr.write(JSON.stringify(process.moduleLoadList)))`;

/**
 * Starts the bundled `gateway start` with `npm start`'s environment and Node flags; resolves with its URL. Its
 * standard error, at exit, ends with the list of Node's built-in modules it loaded.
 */
function startBundledGateway(): Promise<{ child: ChildProcess; url: string; standardError: () => string }> {
  const launch = readGatewayLaunch();
  const child = spawn(
    process.execPath,
    [
      ...launch.nodeFlags,
      '--import',
      reportBuiltInModules,
      path.join(bundleDirectory, 'main.js'),
      'start',
      '--port',
      '0',
      '--host',
      '127.0.0.1',
    ],
    {
      env: environment({ ...launch.environment, GATEWAY_LOG_LEVEL: 'info' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let standardError = '';
  child.stderr!.on('data', (chunk: Buffer) => (standardError += chunk.toString()));
  startedChild = child;
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const url = line.startsWith('{') ? (JSON.parse(line) as { url?: unknown }).url : undefined;
      if (typeof url === 'string') resolve({ child, url, standardError: () => standardError });
    });
    child.once('exit', (code) =>
      reject(new Error(`the bundled gateway exited with code ${String(code)} before listening`)),
    );
  });
}

beforeAll(async () => {
  rmSync(buildRoot, { recursive: true, force: true });
  await bundleGateway({ main: 'src/cli/main.ts', ...workerThreadEntries }, bundleDirectory);
  // The console's default folder is `dist/console` beside `dist/gateway`, as `npm run build` lays them out.
  mkdirSync(path.join(buildRoot, 'dist/console'), { recursive: true });
  writeFileSync(path.join(buildRoot, 'dist/console/index.html'), `<!doctype html><title>${consoleMarker}</title>`);
  simulator = await startOpenAiSimulator({ apiKey: channelSecret });
  dataDirectory = await mkdtemp(path.join(os.tmpdir(), 'gateway-built-e2e-'));
}, 60_000);

afterAll(async () => {
  if (startedChild && startedChild.exitCode === null) startedChild.kill('SIGKILL');
  await simulator?.close();
  await rm(dataDirectory, { recursive: true, force: true });
  rmSync(buildRoot, { recursive: true, force: true });
});

describe('the bundled gateway', () => {
  it('is configured by its command line, serves and bills chat completions and the console, and exits cleanly', async () => {
    await runBundledCli(['admin', 'create', '--email', adminEmail]);
    await runBundledCli(['group', 'create', 'team', '--models', 'gpt-4o,whisper-1']);
    await runBundledCli([
      'channel',
      'create',
      '--name',
      'simulator',
      '--base-url',
      simulator.url,
      '--secret-env',
      'UPSTREAM_API_KEY',
      '--models',
      'gpt-4o,whisper-1',
    ]);
    await runBundledCli(['user', 'topup', '--email', adminEmail, '--amount', '10']);
    const { key } = await runBundledCli<{ key: string }>(['key', 'create', '--user', adminEmail, '--group', 'team']);

    const { child, url, standardError } = await startBundledGateway();
    const client = createOpenAiClient({ baseURL: `${url}/v1` }, key);
    const completion = await client.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'from the bundle' }],
    });
    expect(completion.choices[0]?.message.content).toBe('Echo: from the bundle');
    const stream = await client.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'streamed from the bundle' }],
      stream: true,
    });
    let streamedText = '';
    for await (const chunk of stream) streamedText += chunk.choices[0]?.delta.content ?? '';
    expect(streamedText).toBe('Echo: streamed from the bundle');
    // A multipart vendor request: the bundle's undici entry (scripts/undici-for-bundle.cjs) gives FormData on first use.
    const transcription = await client.audio.transcriptions.create({
      model: 'whisper-1',
      file: await toFile(createWav(1), 'speech.wav', { type: 'audio/wav' }),
    });
    expect(transcription.text).toBe('Simulated transcript of speech.wav');
    expect(simulator.requests.at(-1)).toMatchObject({
      path: '/v1/audio/transcriptions',
      body: { model: 'whisper-1', file: { filename: 'speech.wav' } },
    });
    const consolePage = await fetch(`${url}/`);
    expect(await consolePage.text()).toContain(consoleMarker);

    child.kill('SIGTERM');
    expect(await new Promise((resolve) => child.once('exit', resolve))).toBe(0);
    // The bundle's undici entry leaves out undici's fetch, whose modules would load Node's own copy of undici too.
    const builtInModules = JSON.parse(standardError().slice(standardError().lastIndexOf('['))) as string[];
    expect(builtInModules).toContain('NativeModule internal/blob');
    expect(builtInModules).not.toContain('NativeModule internal/deps/undici/undici');
    // The SQLite worker thread wrote both settlements before the exit: a top-up of one micro-unit (the smallest amount)
    // reports a balance below the 10 topped up (10,000,000 micro-units), and every balance matches its ledger.
    const { balance } = await runBundledCli<{ balance: number }>([
      'user',
      'topup',
      '--email',
      adminEmail,
      '--amount',
      '0.000001',
    ]);
    expect(balance).toBeLessThan(10_000_000);
    expect(await runBundledCli(['billing', 'verify'])).toMatchObject({ ok: true });
  }, 60_000);

  it('counts tokens in its bundled tokenizer worker thread', async () => {
    const warnings: string[] = [];
    const tokenizer = new TokenizerWorkerClient({
      workerScript: pathToFileURL(path.join(bundleDirectory, 'tokenizer-worker-thread.js')),
      logger: { warn: (_details, message) => warnings.push(message) },
    });
    const text = 'A bundled worker counts the same tokens as the main thread.';
    expect(await tokenizer.count([text])).toEqual([countTextTokens(text)]);
    expect(tokenizer.startedWorkers).toBe(1);
    expect(warnings).toEqual([]);
    await tokenizer.close();
  });
});
