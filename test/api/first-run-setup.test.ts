// First-run setup: a database without an admin offers a one-time token URL that creates the first admin, once.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBillingTestGateway, type BillingTestGateway } from '../billing/start-billing-test-gateway.js';
import { callConsoleApi } from './console-api-client.js';

let gateway: BillingTestGateway;
let child: ChildProcess | undefined;
let childDataDirectory: string | undefined;

beforeAll(async () => {
  gateway = await startBillingTestGateway({ models: ['setup-model'] });
});

afterAll(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  if (childDataDirectory) await rm(childDataDirectory, { recursive: true, force: true });
  await gateway?.close();
});

function tokenOf(setupUrl: string): string {
  return new URL(setupUrl).searchParams.get('token') ?? '';
}

async function postSetup(
  base: { url: string },
  body: Record<string, unknown>,
): Promise<{ status: number; body: any; cookie: string | undefined }> {
  const response = await request(`${base.url}/api/setup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const cookie = response.headers['set-cookie'];
  return {
    status: response.statusCode,
    body: await response.body.json(),
    cookie: Array.isArray(cookie) ? cookie[0] : cookie,
  };
}

describe('first-run setup', () => {
  it('creates exactly one admin with the printed token, signs them in, grants default groups and closes for good', async () => {
    const setupUrl = gateway.running.setupUrl;
    expect(setupUrl).toMatch(new RegExp(`^${gateway.url}/setup\\?token=[A-Za-z0-9_-]{40,}$`));
    await gateway.running.billing.exclusive(() =>
      gateway.running.store.createModelGroup({ name: 'default', description: '', models: ['*'] }),
    );
    expect((await callConsoleApi(gateway, 'GET', '/setup', undefined)).body).toEqual({ open: true });

    const wrong = await postSetup(gateway, {
      token: 'not-the-token',
      email: 'intruder@example.test',
      password: 'long enough password',
    });
    expect(wrong.status).toBe(403);

    const token = tokenOf(setupUrl!);
    const attempts = await Promise.all(
      Array.from({ length: 5 }, (_, index) =>
        postSetup(gateway, {
          token,
          email: `Owner${index}@Example.test`,
          password: 'long enough password',
          displayName: 'Owner',
        }),
      ),
    );
    const created = attempts.filter((attempt) => attempt.status === 200);
    expect(created).toHaveLength(1);
    expect(attempts.filter((attempt) => attempt.status === 404)).toHaveLength(4);
    const admin = created[0]!;
    expect(admin.body).toMatchObject({ user: { role: 'admin', displayName: 'Owner' }, groups: ['default'] });
    expect(admin.body.user.email).toMatch(/^owner\d@example\.test$/);
    expect(admin.cookie).toMatch(/^gateway_session=gwses-[^;]+; Path=\/; HttpOnly; SameSite=Lax/);
    const users = await gateway.running.store.listUsers();
    expect(users.filter((user) => user.role === 'admin')).toHaveLength(1);

    // The new admin can use the /api at once, with the returned token or the cookie.
    const me = await callConsoleApi(gateway, 'GET', '/me', admin.body.token);
    expect(me.body).toMatchObject({ isAdmin: true, user: { email: admin.body.user.email } });
    const cookieCall = await request(`${gateway.url}/api/users`, { headers: { cookie: admin.cookie!.split(';')[0]! } });
    expect(cookieCall.statusCode).toBe(200);
    await cookieCall.body.dump();
    expect(
      (await callConsoleApi(gateway, 'POST', '/users', admin.body.token, { email: 'second@example.test' })).status,
    ).toBe(201);

    expect((await callConsoleApi(gateway, 'GET', '/setup', undefined)).body).toEqual({ open: false });
    expect(
      (await postSetup(gateway, { token, email: 'late@example.test', password: 'long enough password' })).status,
    ).toBe(404);
  });

  it('is written by `gateway start` to an owner-only file (never to the log) on an empty database, and closed by an admin made with the CLI', async () => {
    childDataDirectory = await mkdtemp(path.join(os.tmpdir(), 'gateway-setup-'));
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('GATEWAY_')));
    child = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/cli/main.ts', 'start', '--port', '0', '--host', '127.0.0.1'],
      {
        env: { ...inherited, GATEWAY_DATA_DIR: childDataDirectory, GATEWAY_LOG_LEVEL: 'info', GATEWAY_BILLING: 'off' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const started = child;
    const output: string[] = [];
    createInterface({ input: started.stderr! }).on('line', (line) => output.push(line));
    const { loggedFile, url } = await new Promise<{ loggedFile: string; url: string }>((resolve, reject) => {
      let loggedFile: string | undefined;
      let url: string | undefined;
      createInterface({ input: started.stdout! }).on('line', (line) => {
        output.push(line);
        if (line.startsWith('{')) {
          const entry = JSON.parse(line) as { setupUrlFile?: string; url?: string };
          loggedFile = entry.setupUrlFile ?? loggedFile;
          url = entry.url ?? url;
        }
        if (loggedFile && url) resolve({ loggedFile, url });
      });
      started.once('exit', (code) => reject(new Error(`gateway start exited with ${String(code)}`)));
    });
    // stderr is no terminal here: the token is only in the file, which only the gateway's user may read.
    expect(loggedFile).toBe(path.join(childDataDirectory, 'setup-url'));
    expect(statSync(loggedFile).mode & 0o777).toBe(0o600);
    const printedUrl = readFileSync(loggedFile, 'utf8').trim();
    expect(printedUrl.startsWith(`${url}/setup?token=`)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(output.some((line) => line.includes(tokenOf(printedUrl)))).toBe(false);
    expect(output.some((line) => line.includes(loggedFile) && !line.startsWith('{'))).toBe(true);
    expect((await callConsoleApi({ url }, 'GET', '/setup', undefined)).body).toEqual({ open: true });

    // An admin created another way (here straight in the database, as `gateway admin create` does) closes setup.
    const { createGatewayStore } = await import('../../src/storage/kysely-gateway-store.js');
    const store = createGatewayStore({ databaseUrl: `sqlite:${path.join(childDataDirectory, 'gateway.db')}` });
    await store.createUser({ email: 'cli-admin@example.test', displayName: 'CLI', role: 'admin', passwordHash: null });
    await store.close();
    expect((await callConsoleApi({ url }, 'GET', '/setup', undefined)).body).toEqual({ open: false });
    expect(
      (
        await postSetup(
          { url },
          { token: tokenOf(printedUrl), email: 'late@example.test', password: 'long enough password' },
        )
      ).status,
    ).toBe(404);
    started.kill('SIGTERM');
    await new Promise((resolve) => started.once('exit', resolve));
  });
});
