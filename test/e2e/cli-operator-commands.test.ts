// README's first-request steps in the order written, then the operator's day-to-day commands, each run as the real
// `gateway` child against a temporary data folder: --json output, exit codes and the audit rows they leave.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatingSystemUserName } from '../../src/cli/open-cli-services.js';

const runFile = promisify(execFile);
const projectDirectory = fileURLToPath(new URL('../..', import.meta.url));
const cliEntry = path.join(projectDirectory, 'src/cli/main.ts');
const adminEmail = 'admin@example.com';
let dataDirectory: string;

function runCli(cliArguments: string[]): Promise<{ stdout: string; stderr: string }> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('GATEWAY_')));
  return runFile(process.execPath, ['--import', 'tsx', cliEntry, ...cliArguments], {
    cwd: projectDirectory,
    env: { ...inherited, GATEWAY_DATA_DIR: dataDirectory, GATEWAY_LOG_LEVEL: 'silent', OPENAI_API_KEY: 'sk-test' },
    timeout: 60_000,
  });
}

async function runJson<Result>(cliArguments: string[]): Promise<Result> {
  return JSON.parse((await runCli([...cliArguments, '--json'])).stdout) as Result;
}

/** Runs a command that must fail; resolves with its exit code and stderr. */
async function runFailing(cliArguments: string[]): Promise<{ code: unknown; stderr: string }> {
  return runCli(cliArguments).then(
    () => ({ code: 0, stderr: '' }),
    (error: { code?: unknown; stderr?: string }) => ({ code: error.code, stderr: error.stderr ?? '' }),
  );
}

interface AuditRow {
  action: string;
  actorKind: string;
  actorId: string | null;
  actorLabel: string;
  actorUserId: string | null;
  targetId: string | null;
  details: Record<string, unknown>;
}

beforeAll(async () => {
  dataDirectory = await mkdtemp(path.join(os.tmpdir(), 'gateway-cli-operator-'));
});

afterAll(async () => {
  await rm(dataDirectory, { recursive: true, force: true });
});

describe("the operator's command line", () => {
  let keyId = '';

  it("walks README's first-request steps in order: the admin is granted the default group", async () => {
    const group = await runJson<{ name: string }>(['group', 'create', 'default', '--models', '*']);
    expect(group.name).toBe('default');
    const admin = await runJson<{ email: string; groups: string[] }>(['admin', 'create', '--email', adminEmail]);
    expect(admin).toMatchObject({ email: adminEmail, groups: ['default'] });
    await runCli([
      'channel',
      'create',
      '--name',
      'openai',
      '--preset',
      'openai',
      '--secret-env',
      'OPENAI_API_KEY',
      '--models',
      'gpt-4o-mini,text-embedding-3-small',
    ]);
    const topup = await runJson<{ balance: number }>(['user', 'topup', '--email', adminEmail, '--amount', '10']);
    expect(topup.balance).toBe(10_000_000);
    const key = await runJson<{ id: string; key: string; grantedGroup: boolean }>([
      'key',
      'create',
      '--user',
      adminEmail,
      '--group',
      'default',
    ]);
    // The admin already held the group: the key did not need to grant it.
    expect(key.grantedGroup).toBe(false);
    keyId = key.id;
  }, 120_000);

  it('sets and clears key limits, disables and enables the key, each audited as the CLI user', async () => {
    const limited = await runJson<Record<string, unknown>>([
      'key',
      'limits',
      keyId,
      '--spending-cap',
      '5',
      '--allowed-ips',
      '10.0.0.0/8,192.168.1.7',
      '--requests-per-minute',
      '60',
      '--expires-in-days',
      '30',
    ]);
    expect(limited).toMatchObject({
      id: keyId,
      spendingCap: 5_000_000,
      allowedIps: ['10.0.0.0/8', '192.168.1.7'],
      limits: { requestsPerMinute: 60, tokensPerMinute: null, maxConcurrentRequests: null },
    });
    expect(limited.expiresAt).toEqual(expect.any(Number));
    const cleared = await runJson<Record<string, unknown>>([
      'key',
      'limits',
      keyId,
      '--clear-spending-cap',
      '--clear-allowed-ips',
      '--clear-expiry',
      '--requests-per-minute',
      'default',
    ]);
    expect(cleared).toMatchObject({
      spendingCap: null,
      allowedIps: [],
      expiresAt: null,
      limits: { requestsPerMinute: null },
    });

    const bad = await runFailing(['key', 'limits', keyId, '--allowed-ips', 'not-an-address']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toContain('not-an-address');

    expect(await runJson<{ status: string; disabledBy: string }>(['key', 'disable', keyId])).toMatchObject({
      status: 'disabled',
      disabledBy: 'admin',
    });
    expect(await runJson<{ status: string }>(['key', 'enable', keyId])).toMatchObject({ status: 'active' });

    const audit = await runJson<AuditRow[]>(['audit', 'list', '--target', keyId]);
    expect(audit.map((row) => row.action)).toEqual([
      'key.enable',
      'key.disable',
      'key.update',
      'key.update',
      'key.create',
    ]);
    const osUser = operatingSystemUserName();
    for (const row of audit)
      expect(row).toMatchObject({ actorKind: 'cli', actorId: osUser, actorLabel: `cli ${osUser}`, actorUserId: null });
    expect(audit[3]?.details).toMatchObject({ spendingCap: 5_000_000, allowedIps: ['10.0.0.0/8', '192.168.1.7'] });
  }, 180_000);

  it('sets, lists and deletes prices and a price ratio, disables and enables a user, and runs redemption batches', async () => {
    const price = await runJson<Record<string, unknown>>([
      'price',
      'set',
      'my-model',
      '--input',
      '1.5',
      '--output',
      '3',
    ]);
    expect(price).toMatchObject({ modelId: 'my-model', inputPerMillion: 1_500_000, cachedInputPerMillion: 1_500_000 });
    const prices = await runJson<Array<{ modelId: string }>>(['price', 'list']);
    expect(prices.map((entry) => entry.modelId)).toContain('my-model');
    expect(await runJson(['price', 'delete', 'my-model'])).toEqual({ modelId: 'my-model', price: null });

    expect(await runJson(['group', 'price-ratio', 'default', '--ratio', '0.8'])).toMatchObject({
      name: 'default',
      priceRatioMillionths: 800_000,
    });
    const groups = await runJson<Array<{ name: string; priceRatioMillionths: number }>>(['group', 'list']);
    expect(groups).toEqual([expect.objectContaining({ name: 'default', priceRatioMillionths: 800_000 })]);

    const user = await runJson<{ email: string }>(['user', 'create', '--email', 'someone@example.com']);
    expect(await runJson(['user', 'disable', '--email', user.email])).toMatchObject({ status: 'disabled' });
    expect(await runJson(['user', 'enable', '--email', user.email])).toMatchObject({ status: 'active' });

    const batch = await runJson<{ batchId: string; count: number; codes: Array<{ code: string }> }>([
      'redemption',
      'create',
      '--amount',
      '2',
      '--count',
      '3',
      '--note',
      'launch',
    ]);
    expect(batch.count).toBe(3);
    expect(batch.codes).toHaveLength(3);
    const listed = await runJson<Array<{ status: string; batchId: string }>>([
      'redemption',
      'list',
      '--batch',
      batch.batchId,
    ]);
    expect(listed.map((code) => code.status)).toEqual(['active', 'active', 'active']);
    expect(JSON.stringify(listed)).not.toContain(batch.codes[0]?.code);
    expect(await runJson(['redemption', 'disable', '--batch', batch.batchId])).toEqual({
      batchId: batch.batchId,
      disabled: 3,
    });

    const missingOrder = await runFailing(['order', 'recheck', 'ord_missing']);
    expect(missingOrder.code).not.toBe(0);
    expect(missingOrder.stderr.trim()).toBe('gateway: No such order.');

    const audit = await runJson<AuditRow[]>(['audit', 'list', '--limit', '9']);
    expect(audit.map((row) => row.action)).toEqual([
      'redemption.batch.disable',
      'redemption.batch.create',
      'user.enable',
      'user.disable',
      'user.create',
      'group.price-ratio.set',
      'price.delete',
      'price.set',
      'key.enable',
    ]);
    expect(audit.every((row) => row.actorKind === 'cli')).toBe(true);
  }, 240_000);
});
