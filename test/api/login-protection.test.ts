// Brute force against POST /api/auth/login on a running gateway: per-account and per-address locks with back-off,
// one check in flight per account, no address lock for unknown emails, the client address behind a trusted proxy,
// logged failures that never carry the password, and old scrypt hashes moved to argon2id on the next sign-in.
import { randomBytes, scryptSync } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashNormalisedEmail } from '../../src/accounts/normalise-email.js';
import { hashPassword } from '../../src/accounts/password-hash.js';
import { loadGatewayConfig } from '../../src/config/gateway-config.js';
import { startGateway, type RunningGateway } from '../../src/runtime/start-gateway.js';

const password = 'correct horse battery staple';

interface TestGateway {
  running: RunningGateway;
  logLines: Array<Record<string, unknown>>;
  close(): Promise<void>;
}

/** A gateway on a fresh SQLite file whose log lines are kept for the test to read. */
async function startLoginTestGateway(environment: NodeJS.ProcessEnv = {}): Promise<TestGateway> {
  const dataDirectory = await mkdtemp(path.join(os.tmpdir(), 'gateway-login-'));
  const logLines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n'))
        if (line) logLines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const config = loadGatewayConfig({
    GATEWAY_DATA_DIR: dataDirectory,
    GATEWAY_PORT: '0',
    GATEWAY_HOST: '127.0.0.1',
    GATEWAY_SECRET_KEY: 'login-test-secret-key-of-32-bytes-or-more',
    GATEWAY_REFRESH_INTERVAL_MS: '60000',
    ...environment,
  });
  const running = await startGateway(config, pino({ level: 'info' }, sink), { billing: { enabled: false } });
  return {
    running,
    logLines,
    async close() {
      await running.close();
      await rm(dataDirectory, { recursive: true, force: true });
    },
  };
}

async function logIn(gateway: TestGateway, email: string, attempt: string, forwardedFor?: string) {
  const response = await request(`${gateway.running.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) },
    body: JSON.stringify({ email, password: attempt }),
  });
  return {
    status: response.statusCode,
    headers: response.headers,
    body: (await response.body.json()) as { error?: Record<string, unknown>; token?: string },
  };
}

async function createUser(gateway: TestGateway, email: string, passwordHash: string | null) {
  return gateway.running.store.createUser({ email, displayName: email, role: 'user', passwordHash });
}

describe('POST /api/auth/login under brute force', () => {
  let gateway: TestGateway;

  beforeAll(async () => {
    gateway = await startLoginTestGateway();
  });

  afterAll(async () => {
    await gateway?.close();
  });

  it('answers 429 with Retry-After after five wrong passwords in a row on one account, even for the right password then', async () => {
    await createUser(gateway, 'victim@example.com', await hashPassword(password));
    const statuses: number[] = [];
    let lastRefusal: Awaited<ReturnType<typeof logIn>> | undefined;
    for (let attempt = 0; attempt < 30; attempt++) {
      const answer = await logIn(gateway, 'Victim@Example.com ', `guess-${attempt}`);
      statuses.push(answer.status);
      if (answer.status === 429) lastRefusal = answer;
    }
    expect(statuses.slice(0, 6)).toEqual([401, 401, 401, 401, 401, 429]);
    // Locks last 1 s, 2 s, 4 s, ...: on a slow machine one may run out within the loop and let one more guess
    // through, after which the next lock is twice as long. Never more than a handful of the 30 are checked.
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(8);
    expect(statuses.filter((status) => status !== 401 && status !== 429)).toEqual([]);
    expect(lastRefusal?.body.error).toMatchObject({
      type: 'rate_limit_error',
      code: 'rate_limit_exceeded',
      param: null,
    });
    expect(Number(lastRefusal?.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await logIn(gateway, 'victim@example.com', password)).status).toBe(429);
  });

  it('locks an email without an account exactly like one with an account', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 7; attempt++)
      statuses.push((await logIn(gateway, 'nobody-here@example.com', `guess-${attempt}`)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
  });

  it('logs each failure with the client address and a hash of the email, never the password', async () => {
    await logIn(gateway, 'logged@example.com', 'a-very-secret-guess');
    const failure = gateway.logLines.find(
      (line) => line.msg === 'console sign-in failed' && line.emailHash === hashNormalisedEmail('logged@example.com'),
    );
    expect(failure).toMatchObject({ level: 40, clientAddress: '127.0.0.1' });
    const everything = JSON.stringify(gateway.logLines);
    expect(everything).not.toContain('a-very-secret-guess');
    expect(everything).not.toContain('logged@example.com');
    expect(gateway.logLines.some((line) => line.msg === 'console sign-in refused: too many failed attempts')).toBe(
      true,
    );
  });

  it('verifies a legacy scrypt hash and stores an argon2id one at the next successful sign-in', async () => {
    const salt = randomBytes(16);
    const legacy = `scrypt$${salt.toString('base64')}$${scryptSync(password, salt, 32).toString('base64')}`;
    await createUser(gateway, 'legacy@example.com', legacy);
    expect((await logIn(gateway, 'legacy@example.com', password)).status).toBe(200);
    const stored = (await gateway.running.store.findUserByEmail('legacy@example.com'))?.passwordHash;
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect((await logIn(gateway, 'legacy@example.com', password)).status).toBe(200);
  });
});

describe('POST /api/auth/login from one address against many accounts', () => {
  let gateway: TestGateway;

  beforeAll(async () => {
    gateway = await startLoginTestGateway();
  });

  afterAll(async () => {
    await gateway?.close();
  });

  it('locks the address after 30 failures against real accounts, for every account from there', async () => {
    const passwordHash = await hashPassword(password);
    await createUser(gateway, 'real@example.com', passwordHash);
    for (let attempt = 0; attempt < 30; attempt++) {
      await createUser(gateway, `sprayed-${attempt}@example.com`, passwordHash);
      expect((await logIn(gateway, `sprayed-${attempt}@example.com`, 'Winter2025!')).status).toBe(401);
    }
    const refused = await logIn(gateway, 'real@example.com', password);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
  });
});

describe('POST /api/auth/login from one address against emails without an account', () => {
  let gateway: TestGateway;

  beforeAll(async () => {
    gateway = await startLoginTestGateway();
  });

  afterAll(async () => {
    await gateway?.close();
  });

  it('never locks the address: after 40 failures on unknown emails a real account signs in from there', async () => {
    await createUser(gateway, 'owner@example.com', await hashPassword(password));
    for (let attempt = 0; attempt < 40; attempt++)
      expect((await logIn(gateway, `nobody-${attempt}@example.com`, 'Winter2025!')).status).toBe(401);
    expect((await logIn(gateway, 'owner@example.com', password)).status).toBe(200);
  });
});

describe('POST /api/auth/login with 25 wrong passwords at once', () => {
  let gateway: TestGateway;

  beforeAll(async () => {
    gateway = await startLoginTestGateway();
  });

  afterAll(async () => {
    await gateway?.close();
  });

  it('checks at most the five the policy allows; the others get 429', async () => {
    await createUser(gateway, 'parallel@example.com', await hashPassword(password));
    const answers = await Promise.all(
      Array.from({ length: 25 }, (_, attempt) => logIn(gateway, 'parallel@example.com', `guess-${attempt}`)),
    );
    const checked = gateway.logLines.filter((line) => line.msg === 'console sign-in failed').length;
    expect(checked).toBeGreaterThanOrEqual(1);
    expect(checked).toBeLessThanOrEqual(5);
    expect(answers.filter((answer) => answer.status === 401)).toHaveLength(checked);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(25 - checked);
  });
});

describe('POST /api/auth/login behind a reverse proxy', () => {
  const spray = async (gateway: TestGateway, forwardedFor: string) => {
    const passwordHash = await hashPassword(password);
    await createUser(gateway, `victim-${forwardedFor}@example.com`, passwordHash);
    for (let attempt = 0; attempt < 30; attempt++) {
      const email = `sprayed-${forwardedFor}-${attempt}@example.com`;
      await createUser(gateway, email, passwordHash);
      expect((await logIn(gateway, email, 'Winter2025!', forwardedFor)).status).toBe(401);
    }
    return passwordHash;
  };

  it('limits each client by its X-Forwarded-For address when the proxy is trusted (GATEWAY_TRUST_PROXY)', async () => {
    const gateway = await startLoginTestGateway({ GATEWAY_TRUST_PROXY: 'loopback' });
    try {
      await spray(gateway, '203.0.113.1');
      expect((await logIn(gateway, 'victim-203.0.113.1@example.com', password, '203.0.113.1')).status).toBe(429);
      await createUser(gateway, 'neighbour@example.com', await hashPassword(password));
      expect((await logIn(gateway, 'neighbour@example.com', password, '203.0.113.2')).status).toBe(200);
    } finally {
      await gateway.close();
    }
  });

  it('ignores X-Forwarded-For without the setting: the socket address is the client', async () => {
    const gateway = await startLoginTestGateway();
    try {
      await spray(gateway, '203.0.113.1');
      await createUser(gateway, 'neighbour@example.com', await hashPassword(password));
      expect((await logIn(gateway, 'neighbour@example.com', password, '203.0.113.2')).status).toBe(429);
    } finally {
      await gateway.close();
    }
  });
});
