import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../src/storage/create-database.js';
import { createBillingStore } from '../../src/storage/kysely-billing-store.js';
import { createGatewayStore } from '../../src/storage/kysely-gateway-store.js';

let dataDirectory: string;
let databaseUrl: string;

beforeAll(async () => {
  dataDirectory = await mkdtemp(path.join(os.tmpdir(), 'gateway-billing-cli-'));
  databaseUrl = `sqlite:${path.join(dataDirectory, 'gateway.db')}`;
  const store = createGatewayStore({ databaseUrl });
  await store.migrate();
  await store.createUser({ email: 'payer@example.test', displayName: 'Payer', role: 'user', passwordHash: null });
  await store.close();
});

afterAll(async () => {
  await rm(dataDirectory, { recursive: true, force: true });
});

async function runCli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
    env: { ...process.env, GATEWAY_DATA_DIR: dataDirectory, GATEWAY_DATABASE_URL: databaseUrl },
  }).then(
    (result) => ({ code: 0, stdout: result.stdout, stderr: result.stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      stdout: error.stdout,
      stderr: error.stderr,
    }),
  );
}

describe('billing commands', () => {
  it('tops up exactly in currency units, verifies, and exits 1 naming a user whose balance left its ledger', async () => {
    const topUp = await runCli('user', 'topup', '--email', 'payer@example.test', '--amount', '12.345678', '--json');
    expect(topUp.code).toBe(0);
    expect(JSON.parse(topUp.stdout)).toMatchObject({
      balance: 12_345_678,
      entry: { kind: 'top-up', amount: 12_345_678 },
    });
    expect((await runCli('user', 'topup', '--email', 'payer@example.test', '--amount', '0.0000001')).code).toBe(1);

    const verified = await runCli('billing', 'verify');
    expect(verified.code).toBe(0);
    expect(verified.stdout).toMatch(/^OK/);

    const { database } = createDatabase(databaseUrl);
    await database.updateTable('users').set({ balance: 1 }).execute();
    await database.destroy();
    const broken = await runCli('billing', 'verify');
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain('payer@example.test');
    const store = createBillingStore({ databaseUrl });
    expect(await store.findBalanceMismatches()).toHaveLength(1);
    await store.close();
  }, 120_000);

  it('verifies debts too: a debt that left the sum of its ledger debt changes fails the check', async () => {
    const gatewayStore = createGatewayStore({ databaseUrl });
    const user = await gatewayStore.createUser({
      email: 'debtor@example.test',
      displayName: 'Debtor',
      role: 'user',
      passwordHash: null,
    });
    await gatewayStore.close();
    const store = createBillingStore({ databaseUrl });
    const { database } = createDatabase(databaseUrl);
    // The previous test breaks the payer's balance on purpose; put it back so only the debtor can fail the check.
    for (const mismatch of await store.findBalanceMismatches())
      await database
        .updateTable('users')
        .set({ balance: mismatch.ledgerSum })
        .where('id', '=', mismatch.userId)
        .execute();
    await store.writeSettlementBatch({
      charges: [{ id: 'led_owe', userId: user.id, apiKeyId: 'none', amount: 0, debt: 5, requestId: 'r', createdAt: 2 }],
      usageLogs: [],
    });
    expect((await runCli('billing', 'verify')).code).toBe(0);

    await database.updateTable('users').set({ debt: 0 }).where('id', '=', user.id).execute();
    const broken = await runCli('billing', 'verify', '--json');
    expect(broken.code).toBe(1);
    expect(JSON.parse(broken.stdout)).toMatchObject({
      ok: false,
      mismatches: [{ email: 'debtor@example.test', debt: 0, ledgerDebtSum: 5 }],
    });
    await database.destroy();
    await store.close();
  });
});
