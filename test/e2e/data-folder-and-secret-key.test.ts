// What a gateway keeps on disk is its owner's alone, a node whose secret key is not the database's refuses to start
// with the reason, and the first-run setup token stays out of the log.
import { execFile } from 'node:child_process';
import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createSecretBox } from '../../src/accounts/secret-box.js';
import type { GatewayConfig } from '../../src/config/gateway-config.js';
import { startGateway, type RunningGateway } from '../../src/runtime/start-gateway.js';
import { createGatewayStore } from '../../src/storage/kysely-gateway-store.js';
import { createTestGatewayConfig } from '../helpers/create-test-gateway-config.js';
import { createPostgresTestDatabaseUrl, shouldRunPostgresTests } from '../helpers/postgres-test-database.js';

const projectDirectory = fileURLToPath(new URL('../..', import.meta.url));
const cliEntry = path.join(projectDirectory, 'src/cli/main.ts');
const folders: string[] = [];
const running: RunningGateway[] = [];

afterEach(async () => {
  for (const gateway of running.splice(0)) await gateway.close();
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

async function newFolder(): Promise<string> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'gateway-data-files-'));
  folders.push(folder);
  return folder;
}

/** A logger at `debug` whose lines land in `lines`, so a test can read what the gateway logged. */
function capturingLogger(lines: string[]) {
  return pino(
    { level: 'debug' },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    }),
  );
}

function config(dataDirectory: string, overrides: Partial<GatewayConfig> = {}): GatewayConfig {
  return createTestGatewayConfig(
    { dataDirectory, databaseUrl: `sqlite:${path.join(dataDirectory, 'gateway.db')}`, secretKey: '' },
    { secretKey: undefined, ...overrides },
  );
}

async function start(gatewayConfig: GatewayConfig, lines: string[] = []): Promise<RunningGateway> {
  const gateway = await startGateway(gatewayConfig, capturingLogger(lines), { billing: { enabled: false } });
  running.push(gateway);
  return gateway;
}

/** Runs `gateway <arguments>` from source with only the given GATEWAY_* settings; resolves with its outcome. */
function runCliChild(
  cliArguments: string[],
  settings: Record<string, string>,
): Promise<{ exitCode: number | null; stdout: string; stderr: string }> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('GATEWAY_')));
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', cliEntry, ...cliArguments],
      { cwd: projectDirectory, env: { ...inherited, ...settings }, timeout: 60_000 },
      (error, stdout, stderr) =>
        resolve({ exitCode: error ? (error.code === undefined ? 1 : Number(error.code)) : 0, stdout, stderr }),
    );
  });
}

function modeOf(filePath: string): number {
  return statSync(filePath).mode & 0o777;
}

describe('the data folder', () => {
  it('is created 0700 with the database, its WAL and shared-memory files and the secret key 0600', async () => {
    const dataDirectory = path.join(await newFolder(), 'data');
    await start(config(dataDirectory));
    expect(modeOf(dataDirectory)).toBe(0o700);
    for (const name of ['gateway.db', 'gateway.db-wal', 'gateway.db-shm', 'secret.key']) {
      expect(existsSync(path.join(dataDirectory, name)), name).toBe(true);
      expect(modeOf(path.join(dataDirectory, name)), name).toBe(0o600);
    }
  });

  it('is tightened at start when an older gateway left it readable by others, with a log line', async () => {
    const dataDirectory = await newFolder();
    const first = await start(config(dataDirectory));
    await first.close();
    running.splice(0);
    chmodSync(dataDirectory, 0o755);
    for (const name of ['gateway.db', 'secret.key']) chmodSync(path.join(dataDirectory, name), 0o644);
    const lines: string[] = [];
    await start(config(dataDirectory), lines);
    expect(modeOf(dataDirectory)).toBe(0o700);
    expect(modeOf(path.join(dataDirectory, 'gateway.db'))).toBe(0o600);
    expect(modeOf(path.join(dataDirectory, 'secret.key'))).toBe(0o600);
    const logged = lines.map((line) => JSON.parse(line) as { msg: string; paths?: string[] });
    const tightened = logged.find((entry) => entry.msg.includes('owner-only'));
    expect(tightened?.paths).toEqual(
      expect.arrayContaining([
        dataDirectory,
        path.join(dataDirectory, 'gateway.db'),
        path.join(dataDirectory, 'secret.key'),
      ]),
    );
  });
});

describe('the secret key at start', () => {
  it('refuses an empty or short key file and a short GATEWAY_SECRET_KEY, saying why', async () => {
    const emptyKey = await newFolder();
    writeFileSync(path.join(emptyKey, 'secret.key'), '\n', { mode: 0o600 });
    await expect(start(config(emptyKey))).rejects.toThrow(/secret\.key is empty; it needs at least 32 bytes/);
    const shortKey = await newFolder();
    writeFileSync(path.join(shortKey, 'secret.key'), 'short\n', { mode: 0o600 });
    await expect(start(config(shortKey))).rejects.toThrow(/is 5 bytes; it needs at least 32 bytes/);
    await expect(start(config(await newFolder(), { secretKey: 'only-twenty-bytes!!!' }))).rejects.toThrow(
      /GATEWAY_SECRET_KEY is 20 bytes; it needs at least 32 bytes/,
    );
  });

  it('refuses a second node with its own data folder (its own generated key) on the same database', async () => {
    const firstFolder = await newFolder();
    const databaseUrl = `sqlite:${path.join(firstFolder, 'gateway.db')}`;
    await start(config(firstFolder, { databaseUrl }));
    const secondFolder = await newFolder();
    await expect(start(config(secondFolder, { databaseUrl }))).rejects.toThrow(
      /does not match the secret key of this database.*copy secret\.key/,
    );
    // The operator's CLI run with that folder refuses too, before it could seal a secret the gateway cannot open.
    const cli = await runCliChild(['user', 'list', '--json'], {
      GATEWAY_DATA_DIR: secondFolder,
      GATEWAY_DATABASE_URL: databaseUrl,
    });
    expect(cli.exitCode).not.toBe(0);
    expect(cli.stdout).toBe('');
    expect(cli.stderr).toMatch(/does not match the secret key of this database/);
    // With the first node's key file copied over, the second node starts.
    writeFileSync(path.join(secondFolder, 'secret.key'), readFileSync(path.join(firstFolder, 'secret.key')), {
      mode: 0o600,
    });
    await expect(start(config(secondFolder, { databaseUrl }))).resolves.toBeDefined();
  });

  it('on a database from before the check, refuses a key that opens none of its channel secrets and records one that does', async () => {
    const folder = await newFolder();
    const databaseUrl = `sqlite:${path.join(folder, 'gateway.db')}`;
    const rightKey = 'the-key-this-database-was-sealed-with-0123456789';
    const store = createGatewayStore({ databaseUrl });
    await store.migrate();
    // What an older gateway wrote: a channel secret sealed unsalted (v1), and no check value.
    await store.createChannel({
      name: 'legacy',
      protocol: 'openai',
      preset: null,
      baseUrl: 'http://127.0.0.1:9/v1',
      encryptedSecret: sealUnsalted(rightKey, 'sk-legacy'),
      models: ['gpt-4o'],
      modelMapping: {},
      priority: 0,
      weight: 1,
      status: 'enabled',
      settings: {},
    });
    await store.close();
    await expect(
      start(config(folder, { databaseUrl, secretKey: 'another-key-of-at-least-32-bytes-0123456789' })),
    ).rejects.toThrow(/none of the 1 stored channel secrets opens with it/);
    const gateway = await start(config(folder, { databaseUrl, secretKey: rightKey }));
    // The unsalted secret was sealed again with a salt, and still opens to the same secret.
    const [channel] = await gateway.store.listChannels();
    expect(channel?.encryptedSecret.startsWith('v2:')).toBe(true);
    expect(createSecretBox(rightKey).decrypt(channel!.encryptedSecret)).toBe('sk-legacy');
  });
});

describe.runIf(shouldRunPostgresTests())('the secret key check on PostgreSQL', () => {
  it('refuses a second node with another key, and moves the check value on a rekey', async () => {
    const database = await createPostgresTestDatabaseUrl();
    if (database === undefined) throw new Error('GATEWAY_TEST_POSTGRES_URL is needed');
    try {
      const firstKey = 'the-first-postgres-key-of-32-bytes-or-more-01';
      const secondKey = 'the-second-postgres-key-of-32-bytes-or-more-2';
      const on = async (secretKey: string, previousSecretKey?: string) =>
        config(await newFolder(), { databaseUrl: database.url, secretKey, previousSecretKey });
      await start(await on(firstKey));
      await expect(start(await on(secondKey))).rejects.toThrow(/does not match the secret key of this database/);
      for (const gateway of running.splice(0)) await gateway.close();
      await (await start(await on(secondKey, firstKey))).close();
      running.splice(0);
      await expect(start(await on(secondKey))).resolves.toBeDefined();
      await expect(start(await on(firstKey))).rejects.toThrow(/does not match/);
    } finally {
      for (const gateway of running.splice(0)) await gateway.close();
      await database.drop();
    }
  });
});

describe('GATEWAY_PREVIOUS_SECRET_KEY', () => {
  const channelFields = {
    protocol: 'openai',
    preset: null,
    baseUrl: 'http://127.0.0.1:9/v1',
    models: ['gpt-4o'],
    modelMapping: {},
    priority: 0,
    weight: 1,
    status: 'enabled' as const,
    settings: {},
  };

  it('moves secrets an older gateway sealed under a short key to a new key, so none becomes unreadable', async () => {
    const folder = await newFolder();
    const databaseUrl = `sqlite:${path.join(folder, 'gateway.db')}`;
    const store = createGatewayStore({ databaseUrl });
    await store.migrate();
    await store.createChannel({
      name: 'short-key',
      ...channelFields,
      encryptedSecret: sealUnsalted('short', 'sk-kept'),
    });
    await store.close();
    const newKey = 'the-new-long-key-of-32-bytes-or-more-0123456';
    await expect(start(config(folder, { databaseUrl, secretKey: newKey }))).rejects.toThrow(/opens with it/);
    const moved = await start(config(folder, { databaseUrl, secretKey: newKey, previousSecretKey: 'short' }));
    const [channel] = await moved.store.listChannels();
    expect(createSecretBox(newKey).decrypt(channel!.encryptedSecret)).toBe('sk-kept');
    await moved.close();
    running.splice(0);
    // Without the setting the new key is now the database's.
    await expect(start(config(folder, { databaseUrl, secretKey: newKey }))).resolves.toBeDefined();
  });

  it("replaces the database's check value of the previous key with the new key's", async () => {
    const folder = await newFolder();
    const databaseUrl = `sqlite:${path.join(folder, 'gateway.db')}`;
    const oldKey = 'the-old-long-key-of-32-bytes-or-more-0123456';
    const newKey = 'the-new-long-key-of-32-bytes-or-more-6543210';
    const first = await start(config(folder, { databaseUrl, secretKey: oldKey }));
    await first.store.createChannel({
      name: 'old-key',
      ...channelFields,
      encryptedSecret: createSecretBox(oldKey).encrypt('sk-moved'),
    });
    await first.close();
    running.splice(0);
    await expect(start(config(folder, { databaseUrl, secretKey: newKey }))).rejects.toThrow(/does not match/);
    await (await start(config(folder, { databaseUrl, secretKey: newKey, previousSecretKey: oldKey }))).close();
    running.splice(0);
    const after = await start(config(folder, { databaseUrl, secretKey: newKey }));
    const [channel] = await after.store.listChannels();
    expect(createSecretBox(newKey).decrypt(channel!.encryptedSecret)).toBe('sk-moved');
    await expect(start(config(await newFolder(), { databaseUrl, secretKey: oldKey }))).rejects.toThrow(
      /does not match/,
    );
  });
});

describe('the first-run setup URL', () => {
  it('never reaches the log, even at debug; it is in an owner-only file in the data folder until an admin exists', async () => {
    const dataDirectory = await newFolder();
    const lines: string[] = [];
    const gateway = await start(config(dataDirectory), lines);
    const token = new URL(gateway.setupUrl!).searchParams.get('token')!;
    expect(token.length).toBeGreaterThan(30);
    expect(lines.some((line) => line.includes(token))).toBe(false);
    expect(lines.some((line) => line.includes('"setupUrlFile"'))).toBe(true);
    const file = path.join(dataDirectory, 'setup-url');
    expect(gateway.setupUrlFile).toBe(file);
    expect(readFileSync(file, 'utf8').trim()).toBe(gateway.setupUrl);
    expect(modeOf(file)).toBe(0o600);
    await gateway.store.createUser({
      email: 'admin@example.test',
      displayName: 'A',
      role: 'admin',
      passwordHash: null,
    });
    await gateway.close();
    running.splice(0);
    const restarted = await start(config(dataDirectory));
    expect(restarted.setupUrl).toBeUndefined();
    expect(existsSync(file)).toBe(false);
  });
});

/** A secret sealed as gateways before the salted format did: AES-256-GCM under the bare SHA-256 of the key. */
function sealUnsalted(keyMaterial: string, plainText: string): string {
  // Written out here rather than taken from the box, so the test holds the old format fixed.
  const key = createHash('sha256').update(keyMaterial).digest();
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  const encrypted = Buffer.concat([cipher.update(plainText, 'utf8'), cipher.final()]);
  return ['v1', nonce.toString('base64'), cipher.getAuthTag().toString('base64'), encrypted.toString('base64')].join(
    ':',
  );
}
