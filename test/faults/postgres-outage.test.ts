// PostgreSQL restarted (`pg_ctl restart -m fast`), frozen (SIGSTOP), and stopped then started under load, on a server of the test's own:
// the node never exits; requests that need the database (sign-in) get 503 with Retry-After in time while others (a
// known key, holds in memory) are served; /readyz says 503 while it is down and 200 after; and once it is back every
// acknowledged request has its usage row and ledger entry, written once, and the balances verify.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRecord } from '../../src/storage/store-records.js';
import {
  createUnitPrice,
  settleEverything,
  startBillingTestGateway,
  type BillingTestGateway,
} from '../billing/start-billing-test-gateway.js';
import {
  canStartPrivatePostgres,
  startPrivatePostgres,
  type PrivatePostgres,
} from '../helpers/start-private-postgres.js';
import { askUntil, runLoad, send, type LoadAnswer, type LoadRequest } from './run-load.js';

const model = 'outage-model';
const password = 'a database that comes and goes';
/**
 * Every answer must come within this: shorter than the outage, so a request held for the database fails the test
 * (the gateway's own bound is about a second; the rest is slack for a loaded CI machine with two nodes' worth of work).
 */
const answerBoundMs = 5_000;

let postgres: PrivatePostgres;
let gateway: BillingTestGateway;
let user: UserRecord;
let secret: string;

describe.runIf(canStartPrivatePostgres())('a PostgreSQL outage under load', () => {
  beforeAll(async () => {
    postgres = await startPrivatePostgres();
    // Routing and billing poll the database every 200 ms, as a node would in production (1 s by default).
    gateway = await startBillingTestGateway({
      models: [model],
      prices: [createUnitPrice(model)],
      databaseUrl: postgres.url,
      config: { refreshIntervalMs: 200 },
    });
    user = await gateway.createUser('user', password);
    await gateway.topUp(user, 100_000_000);
    secret = (await gateway.createKey(user)).secret;
  }, 60_000);

  afterAll(async () => {
    await gateway?.close();
    await postgres?.remove();
  });

  const chat = (): LoadRequest => ({
    url: `${gateway.url}/v1/chat/completions`,
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hello' }], max_tokens: 5 }),
  });
  const signIn = (): LoadRequest => ({
    url: `${gateway.url}/api/auth/login`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: user.email, password }),
  });
  const readiness = async () => {
    const response = await send({ url: `${gateway.url}/readyz`, method: 'GET', headers: {} });
    return response;
  };
  const readinessBody = async () => {
    const response = await fetch(`${gateway.url}/readyz`);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  async function countRows(): Promise<{ acknowledgedLogs: number; settlementEntries: number }> {
    const client = new pg.Client({ connectionString: postgres.url });
    await client.connect();
    try {
      const logs = await client.query<{ count: string }>(
        'select count(*) as count from usage_logs where user_id = $1 and status between 200 and 299',
        [user.id],
      );
      const ledger = await client.query<{ count: string }>(
        "select count(*) as count from ledger_entries where user_id = $1 and kind = 'settlement'",
        [user.id],
      );
      return { acknowledgedLogs: Number(logs.rows[0]!.count), settlementEntries: Number(ledger.rows[0]!.count) };
    } finally {
      await client.end();
    }
  }

  function expectAnsweredInTime(answers: LoadAnswer[]): void {
    expect(answers.filter((answer) => answer.status === 0)).toEqual([]);
    expect(answers.filter((answer) => answer.elapsedMs > answerBoundMs)).toEqual([]);
    // An error is only ever the documented 503 with Retry-After.
    expect(
      answers.filter(
        (answer) =>
          answer.status !== 200 &&
          !(answer.status === 503 && answer.errorCode === 'service_unavailable' && answer.retryAfter !== undefined),
      ),
    ).toEqual([]);
  }

  it('survives a restart and a stop, serves what needs no database, and loses no acknowledged request', async () => {
    expect((await readiness()).status).toBe(200);
    const load = runLoad({ clients: 4, next: chat });
    const signIns = runLoad({ clients: 1, next: signIn, pauseMs: 50 });
    await new Promise((resolve) => setTimeout(resolve, 500));

    // A fast restart ends every connection (57P01) and refuses new ones while it shuts down and starts (57P03).
    await postgres.restart();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await askUntil(readiness, (answer) => answer.status === 200, 10_000)).status).toBe(200);

    // Frozen (SIGSTOP: connections stay open, nothing answers): chat is still served, /readyz says so within its
    // check timeout, and what waited for the database is answered once it runs again.
    await postgres.freeze();
    const frozenAt = Date.now();
    try {
      expect(await askUntil(readinessBody, (answer) => answer.status === 503, 5_000)).toEqual({
        status: 503,
        body: expect.objectContaining({ database: 'down' }),
      });
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    } finally {
      await postgres.thaw();
    }
    const thawedAt = Date.now();
    expect((await askUntil(readiness, (answer) => answer.status === 200, 10_000)).status).toBe(200);

    // Stopped: sign-in needs the database and gets 503; chat with a key already in memory is still served.
    await postgres.stop();
    const stoppedAt = Date.now();
    const down = await askUntil(readinessBody, (answer) => answer.status === 503, 5_000);
    expect(down).toEqual({
      status: 503,
      body: expect.objectContaining({
        status: 'unavailable',
        database: 'down',
        error: expect.objectContaining({ code: 'service_unavailable' }),
      }),
    });
    expect((await send({ url: `${gateway.url}/healthz`, method: 'GET', headers: {} })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const startedAgainAt = Date.now();
    const whileDown = (answers: LoadAnswer[]) =>
      answers.filter((answer) => answer.sentAt > stoppedAt + 300 && answer.sentAt < startedAgainAt - 200);
    await postgres.start();
    const up = await askUntil(readinessBody, (answer) => answer.status === 200, 10_000);
    expect(up).toEqual({ status: 200, body: expect.objectContaining({ status: 'ready', database: 'up' }) });
    // Stopped first: a second sign-in to the same account while one is checked is refused (one check in flight).
    const signInAnswers = await signIns.stop();
    expect(
      (
        await askUntil(
          () => send(signIn()),
          (answer) => answer.status === 200,
          10_000,
        )
      ).status,
    ).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));

    const chatAnswers = await load.stop();
    expectAnsweredInTime(chatAnswers);
    expectAnsweredInTime(signInAnswers);
    const signInsWhileDown = whileDown(signInAnswers);
    expect(signInsWhileDown.length).toBeGreaterThan(0);
    expect(signInsWhileDown.every((answer) => answer.status === 503)).toBe(true);
    const chatsWhileFrozen = chatAnswers.filter(
      (answer) => answer.sentAt > frozenAt + 300 && answer.sentAt < thawedAt - 300,
    );
    expect(chatsWhileFrozen.length).toBeGreaterThan(0);
    expect(chatsWhileFrozen.every((answer) => answer.status === 200)).toBe(true);
    const chatsWhileDown = chatAnswers.filter(
      (answer) => answer.sentAt > stoppedAt + 300 && answer.sentAt < stoppedAt + 1_500,
    );
    expect(chatsWhileDown.length).toBeGreaterThan(0);
    expect(chatsWhileDown.every((answer) => answer.status === 200)).toBe(true);

    // Every acknowledged chat has its usage row and its ledger entry, once, after the database came back.
    await settleEverything([gateway.running], user.id);
    await askUntil(
      async () => gateway.running.billing.writer.unwrittenRows,
      (rows) => rows === 0,
      15_000,
    );
    const acknowledged = chatAnswers.filter((answer) => answer.status === 200).length;
    expect(acknowledged).toBeGreaterThan(0);
    expect(await countRows()).toEqual({ acknowledgedLogs: acknowledged, settlementEntries: acknowledged });
    expect(await gateway.running.billing.store.findBalanceMismatches()).toEqual([]);
  }, 80_000);
});
