// Redemption codes end to end: admins create, list, export and disable batches; users redeem a code exactly once.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashRedemptionCode } from '../../src/accounts/redemption-code.js';
import { createDatabase } from '../../src/storage/create-database.js';
import type { UserRecord } from '../../src/storage/store-records.js';
import {
  createUnitPrice,
  startBillingTestGateway,
  type BillingTestGateway,
} from '../billing/start-billing-test-gateway.js';
import { callConsoleApi, createSessionToken } from './console-api-client.js';

const model = 'redeem-model';
let gateway: BillingTestGateway;
let admin: UserRecord;
let adminToken: string;

beforeAll(async () => {
  gateway = await startBillingTestGateway({ models: [model], prices: [createUnitPrice(model)] });
  admin = await gateway.createUser('admin');
  adminToken = await createSessionToken(gateway, admin.id);
});

afterAll(async () => {
  await gateway?.close();
});

interface CreatedBatch {
  batchId: string;
  amount: number;
  codes: Array<{ id: string; code: string; codePrefix: string }>;
}

async function createBatch(body: Record<string, unknown>): Promise<CreatedBatch> {
  const answer = await callConsoleApi(gateway, 'POST', '/admin/redemption-codes', adminToken, body);
  expect(answer.status).toBe(201);
  return answer.body as CreatedBatch;
}

async function newUser(): Promise<{ user: UserRecord; token: string }> {
  const user = await gateway.createUser('user');
  return { user, token: await createSessionToken(gateway, user.id) };
}

async function verifyLedger(): Promise<void> {
  expect(await gateway.running.billing.store.findBalanceMismatches()).toEqual([]);
}

describe('redemption codes', () => {
  it('are created in a batch as admin, shown once, stored only as a hash, and credit the balance once with a redemption entry', async () => {
    const batch = await createBatch({ amount: '2.50', count: 3, note: 'card shop' });
    expect(batch.codes).toHaveLength(3);
    expect(batch.amount).toBe(2_500_000);
    const { database } = createDatabase(gateway.databaseUrl);
    const stored = await database
      .selectFrom('redemption_codes')
      .selectAll()
      .where('batch_id', '=', batch.batchId)
      .execute();
    await database.destroy();
    const firstCode = batch.codes[0]!;
    expect(stored.map((row) => row.code_hash).sort()).toEqual(
      batch.codes.map((code) => hashRedemptionCode(code.code)).sort(),
    );
    expect(JSON.stringify(stored)).not.toContain(firstCode.code);

    const { user, token } = await newUser();
    const redeemed = await callConsoleApi(gateway, 'POST', '/redeem', token, { code: firstCode.code.toLowerCase() });
    expect(redeemed.status).toBe(200);
    expect(redeemed.body).toMatchObject({
      amount: 2_500_000,
      balance: 2_500_000,
      debt: 0,
      entry: { kind: 'redemption', amount: 2_500_000 },
    });
    expect(gateway.running.billing.memory.user(user.id).balance).toBe(2_500_000);
    const ledger = await callConsoleApi(gateway, 'GET', '/ledger', token);
    expect(ledger.body.data).toMatchObject([
      { kind: 'redemption', amount: 2_500_000, reference: `redemption:${firstCode.id}` },
    ]);

    const again = await callConsoleApi(gateway, 'POST', '/redeem', token, { code: firstCode.code });
    expect(again.status).toBe(400);
    const other = await newUser();
    expect((await callConsoleApi(gateway, 'POST', '/redeem', other.token, { code: firstCode.code })).status).toBe(400);
    expect(gateway.running.billing.memory.user(user.id).balance).toBe(2_500_000);

    const listed = await callConsoleApi(
      gateway,
      'GET',
      `/admin/redemption-codes?batch=${batch.batchId}&status=redeemed`,
      adminToken,
    );
    expect(listed.body.data).toMatchObject([
      {
        id: firstCode.id,
        status: 'redeemed',
        redeemedBy: user.id,
        codePrefix: firstCode.codePrefix,
        note: 'card shop',
      },
    ]);
    expect(JSON.stringify(listed.body)).not.toContain(firstCode.code);
    expect(
      (await callConsoleApi(gateway, 'GET', `/admin/redemption-codes?batch=${batch.batchId}&status=active`, adminToken))
        .body.data,
    ).toHaveLength(2);
    await verifyLedger();
  });

  it('credits once when 20 users redeem the same code at the same moment', async () => {
    const batch = await createBatch({ amountMicroUnits: 700_000, count: 1 });
    const users = await Promise.all(Array.from({ length: 20 }, () => newUser()));
    const answers = await Promise.all(
      users.map(({ token }) => callConsoleApi(gateway, 'POST', '/redeem', token, { code: batch.codes[0]!.code })),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 400)).toHaveLength(19);
    const balances = users.map(({ user }) => gateway.running.billing.memory.user(user.id).balance);
    expect(balances.reduce((sum, balance) => sum + balance, 0)).toBe(700_000);
    await verifyLedger();
  });

  it('pays a debt first from a redeemed code', async () => {
    const { user, token } = await newUser();
    const billing = gateway.running.billing;
    await billing.exclusive(() =>
      billing.store.writeSettlementBatch({
        charges: [
          {
            id: `led_debt_${user.id}`,
            userId: user.id,
            apiKeyId: 'none',
            amount: 0,
            debt: 300_000,
            requestId: `debt-${user.id}`,
            createdAt: Date.now(),
          },
        ],
        usageLogs: [],
      }),
    );
    await billing.refresh(true);
    const batch = await createBatch({ amountMicroUnits: 1_000_000, count: 1 });
    const redeemed = await callConsoleApi(gateway, 'POST', '/redeem', token, { code: batch.codes[0]!.code });
    expect(redeemed.body).toMatchObject({
      balance: 700_000,
      debt: 0,
      repayment: { kind: 'debt-repayment', amount: -300_000 },
    });
    expect(billing.memory.user(user.id)).toMatchObject({ balance: 700_000, debt: 0 });
    await verifyLedger();
  });

  it('refuses wrong, used, expired and disabled codes with one and the same answer', async () => {
    const batch = await createBatch({ amount: '1', count: 4 });
    const [used, expired, disabled, inDisabledBatch] = batch.codes.map((code) => code);
    const { token } = await newUser();
    expect((await callConsoleApi(gateway, 'POST', '/redeem', token, { code: used!.code })).status).toBe(200);
    const { database } = createDatabase(gateway.databaseUrl);
    await database
      .updateTable('redemption_codes')
      .set({ expires_at: Date.now() - 1 })
      .where('id', '=', expired!.id)
      .execute();
    await database.destroy();
    expect(
      (await callConsoleApi(gateway, 'POST', `/admin/redemption-codes/${disabled!.id}/disable`, adminToken)).body,
    ).toEqual({ disabled: 1 });

    const listedExpired = await callConsoleApi(
      gateway,
      'GET',
      `/admin/redemption-codes?batch=${batch.batchId}&status=expired`,
      adminToken,
    );
    expect(listedExpired.body.data).toMatchObject([{ id: expired!.id, status: 'expired' }]);

    const other = await newUser();
    const answers = await Promise.all(
      ['WRONG-CODE-THAT-DOES-NOT-EXIST', used!.code, expired!.code, disabled!.code].map((code) =>
        callConsoleApi(gateway, 'POST', '/redeem', other.token, { code }),
      ),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual(answers[0]!.body);
    }
    expect(answers[0]!.body.error).toMatchObject({ type: 'invalid_request_error', param: 'code' });

    const batchDisabled = await callConsoleApi(
      gateway,
      'POST',
      `/admin/redemption-batches/${batch.batchId}/disable`,
      adminToken,
    );
    // The last active code and the expired one (still active in the database) are disabled; used and disabled ones stay.
    expect(batchDisabled.body).toEqual({ batchId: batch.batchId, disabled: 2 });
    const third = await newUser();
    expect(
      (await callConsoleApi(gateway, 'POST', '/redeem', third.token, { code: inDisabledBatch!.code })).status,
    ).toBe(400);
    expect(gateway.running.billing.memory.user(other.user.id).balance).toBe(0);

    const actions = await callConsoleApi(gateway, 'GET', '/admin/audit-log?limit=50', adminToken);
    const names = (actions.body.data as Array<{ action: string; targetId: string }>).map(
      (entry) => `${entry.action} ${entry.targetId}`,
    );
    expect(names).toEqual(
      expect.arrayContaining([
        `redemption.batch.create ${batch.batchId}`,
        `redemption.code.disable ${disabled!.id}`,
        `redemption.batch.disable ${batch.batchId}`,
      ]),
    );
  });

  it('throttles a user after 10 refused codes with 429 and Retry-After, even for a good code', async () => {
    const { token } = await newUser();
    for (let attempt = 0; attempt < 10; attempt += 1) {
      expect((await callConsoleApi(gateway, 'POST', '/redeem', token, { code: `NOPE-${attempt}` })).status).toBe(400);
    }
    const batch = await createBatch({ amount: '1', count: 1 });
    const throttled = await callConsoleApi(gateway, 'POST', '/redeem', token, { code: batch.codes[0]!.code });
    expect(throttled.status).toBe(429);
    expect(throttled.body.error.code).toBe('rate_limit_exceeded');
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
    // Another user from the same address is not locked out by this user's guesses.
    const other = await newUser();
    expect((await callConsoleApi(gateway, 'POST', '/redeem', other.token, { code: batch.codes[0]!.code })).status).toBe(
      200,
    );
  });

  it('exports the full codes only in the creation answer, and a batch later as CSV of what is stored', async () => {
    const created = await callConsoleApi(gateway, 'POST', '/admin/redemption-codes?format=csv', adminToken, {
      amount: '3',
      count: 2,
      note: 'with, comma',
    });
    expect(created.status).toBe(201);
    expect(created.headers['content-type']).toContain('text/csv');
    const createdLines = created.text.trim().split('\n');
    expect(createdLines[0]).toBe('code,id,batch_id,amount_micro_units,expires_at,note');
    expect(createdLines).toHaveLength(3);
    const [code, codeId, batchId] = createdLines[1]!.split(',');
    expect(code).toMatch(/^([A-Z2-9]{4}-){6}[A-Z2-9]{4}$/);
    expect(createdLines[1]).toContain('"with, comma"');

    const { token, user } = await newUser();
    expect((await callConsoleApi(gateway, 'POST', '/redeem', token, { code })).status).toBe(200);
    const exported = await callConsoleApi(
      gateway,
      'GET',
      `/admin/redemption-codes?batch=${batchId}&format=csv`,
      adminToken,
    );
    expect(exported.status).toBe(200);
    expect(exported.headers['content-disposition']).toContain('attachment');
    const lines = exported.text.trim().split('\n');
    expect(lines[0]).toBe('id,batch_id,code_prefix,amount_micro_units,status,redeemed_by,redeemed_at,expires_at,note');
    expect(lines).toHaveLength(3);
    const redeemedLine = lines.find((line) => line.startsWith(codeId!));
    expect(redeemedLine).toContain(`,3000000,redeemed,${user.id},`);
    expect(exported.text).not.toContain(code!);
    expect(exported.text).toContain(code!.slice(0, 4));
  });

  it('escapes a note a spreadsheet would run as a formula', async () => {
    const created = await callConsoleApi(gateway, 'POST', '/admin/redemption-codes?format=csv', adminToken, {
      amount: '1',
      count: 1,
      note: '=HYPERLINK("http://example.test")',
    });
    expect(created.status).toBe(201);
    const row = created.text.trim().split('\n')[1]!;
    expect(row).not.toMatch(/,"?=HYPERLINK/);
    expect(row).toContain("'=HYPERLINK");
  });

  it('is for admins only to create, list and disable, and validates the batch', async () => {
    const { token } = await newUser();
    expect(
      (await callConsoleApi(gateway, 'POST', '/admin/redemption-codes', token, { amount: '1', count: 1 })).status,
    ).toBe(403);
    expect((await callConsoleApi(gateway, 'GET', '/admin/redemption-codes', token)).status).toBe(403);
    expect(
      (await callConsoleApi(gateway, 'POST', '/admin/redemption-codes', adminToken, { amount: '1', count: 1001 })).body
        .error.param,
    ).toBe('count');
    expect(
      (await callConsoleApi(gateway, 'POST', '/admin/redemption-codes', adminToken, { amount: '0', count: 1 })).body
        .error.param,
    ).toBe('amount');
    expect(
      (
        await callConsoleApi(gateway, 'POST', '/admin/redemption-codes', adminToken, {
          amount: '1',
          count: 1,
          expiresAt: Date.now() - 1000,
        })
      ).body.error.param,
    ).toBe('expiresAt');
    expect(
      (await callConsoleApi(gateway, 'POST', '/admin/redemption-codes/rcd_missing/disable', adminToken)).status,
    ).toBe(404);
  });

  it('leaves every balance equal to its ledger: `gateway billing verify` passes after all the redemptions above', async () => {
    await gateway.running.billing.writer.flush();
    const environment = {
      ...process.env,
      GATEWAY_DATA_DIR: gateway.dataDirectory,
      GATEWAY_DATABASE_URL: gateway.databaseUrl,
      GATEWAY_LOG_LEVEL: 'silent',
    };
    const verified = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'src/cli/main.ts', 'billing', 'verify'],
      { env: environment },
    );
    expect(verified.stdout).toMatch(/^OK/);
  });
});
