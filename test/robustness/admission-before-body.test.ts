// A request that full admission would surely refuse (the key's address list, its spending cap, the user's empty
// balance, a used-up rate limit) is refused from its headers alone: the body is never waited for, the answer
// is the error full admission gives, and the connection closes. The check takes no rate-limit slot.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestLimits } from '../../src/storage/billing-records.js';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';
import { startOpenAiSimulator, type OpenAiSimulator } from '../simulators/openai-simulator.js';
import { exchangeRawHttp, type RawHttpExchange } from './raw-http-exchange.js';

const upstreamSecret = 'sk-upstream-admission';
const noLimits: RequestLimits = { requestsPerMinute: null, tokensPerMinute: null, maxConcurrentRequests: null };

describe('admission before the body is read', () => {
  let simulator: OpenAiSimulator;
  let gateway: TestGateway;
  let port: number;

  beforeAll(async () => {
    simulator = await startOpenAiSimulator({ apiKey: upstreamSecret });
    gateway = await startTestGateway({ billing: { enabled: true } });
    await gateway.createChannel({ baseUrl: simulator.url, secret: upstreamSecret, models: ['whisper-1', 'gpt-4o'] });
    port = Number(new URL(gateway.url).port);
  });

  afterAll(async () => {
    await gateway?.close();
    await simulator?.close();
  });

  /** A user with `balance` micro-units and a key, whose billing settings are then changed by `settings`. */
  async function createKey(
    balance: number,
    settings: { spendingCap?: number | null; allowedIps?: string[]; limits?: RequestLimits } = {},
  ): Promise<string> {
    const { billing } = gateway.running;
    const user = await gateway.createUser();
    const key = await gateway.createKey({ user });
    if (balance > 0)
      await billing.changeBalance({ userId: user.id, kind: 'top-up', amount: balance, description: 'test' });
    await billing.exclusive(() =>
      billing.store.setApiKeyBilling(key.record.id, {
        spendingCap: settings.spendingCap ?? null,
        allowedIps: settings.allowedIps ?? [],
        limits: settings.limits ?? noLimits,
      }),
    );
    await billing.refresh(true);
    return key.secret;
  }

  /** Sends the head of a 50 MB upload and a few bytes of it, then waits for an answer and the close. */
  function startUpload(apiKey: string, extraHeaders = ''): Promise<RawHttpExchange> {
    const head = `POST /v1/audio/transcriptions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${apiKey}\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: ${50 * 1024 * 1024}\r\n${extraHeaders}\r\n`;
    return exchangeRawHttp({
      port,
      writes: [head, '--b\r\nContent-Disposition: form-data; name="model"\r\n\r\nwhisper-1\r\n'],
      expectedResponses: 1,
      awaitClose: true,
      timeoutMs: 10_000,
    });
  }

  function expectRefusedUnread(exchange: RawHttpExchange, status: number, code: string): void {
    expect(exchange.responses.map((response) => response.status)).toEqual([status]);
    expect(JSON.parse(exchange.responses[0]?.body ?? '{}')).toMatchObject({ error: { code } });
    expect(exchange.responses[0]?.headers.connection).toBe('close');
    expect(exchange.closedByServer).toBe(true);
  }

  it('refuses a user without balance with 429 insufficient_quota before the upload arrives', async () => {
    expectRefusedUnread(await startUpload(await createKey(0)), 429, 'insufficient_quota');
  });

  it('reads a small body first, so full admission refuses it and logs it with its model', async () => {
    const body = JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
    const exchange = await exchangeRawHttp({
      port,
      writes: [
        `POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${await createKey(0)}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      ],
      expectedResponses: 1,
    });
    expect(exchange.responses[0]?.status).toBe(429);
    expect(exchange.responses[0]?.headers.connection).not.toBe('close');
  });

  it('still lists models for a user without balance (listing costs nothing)', async () => {
    const exchange = await exchangeRawHttp({
      port,
      writes: [`GET /v1/models HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${await createKey(0)}\r\n\r\n`],
      expectedResponses: 1,
    });
    expect(exchange.responses[0]?.status).toBe(200);
  });

  it('refuses a key used from an address outside its allow-list with 403', async () => {
    expectRefusedUnread(
      await startUpload(await createKey(1_000_000_000, { allowedIps: ['10.0.0.0/8'] })),
      403,
      'forbidden',
    );
  });

  it('refuses a key whose spending cap is used up with 429 insufficient_quota', async () => {
    expectRefusedUnread(
      await startUpload(await createKey(1_000_000_000, { spendingCap: 0 })),
      429,
      'insufficient_quota',
    );
  });

  it('refuses a key whose requests-per-minute are used up with 429 rate_limit_exceeded, and the check itself takes no slot', async () => {
    const apiKey = await createKey(1_000_000_000, { limits: { ...noLimits, requestsPerMinute: 1 } });
    const chat = (body: string, framing: 'chunked' | 'length') =>
      exchangeRawHttp({
        port,
        writes: [
          framing === 'chunked'
            ? `POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${apiKey}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n`
            : `POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${apiKey}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
        ],
        expectedResponses: 1,
      });
    // A body of unknown length gets the early check, then fails validation: had the check taken a slot, the next
    // request would be 429.
    expect((await chat('{"model":', 'chunked')).responses[0]?.status).toBe(400);
    expect(
      (await chat(JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }), 'length'))
        .responses[0]?.status,
    ).toBe(200);
    const refused = await startUpload(apiKey);
    expectRefusedUnread(refused, 429, 'rate_limit_exceeded');
    expect(refused.responses[0]?.headers['retry-after']).toMatch(/^\d+$/);
  });

  it('does not send 100 Continue to a client that waits for it before an upload that is refused', async () => {
    const exchange = await startUpload(await createKey(0), 'Expect: 100-continue\r\n');
    expectRefusedUnread(exchange, 429, 'insufficient_quota');
  });

  it('sends 100 Continue once a waiting client is admitted, and serves the upload', async () => {
    const apiKey = await createKey(1_000_000_000);
    const body = JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'continue' }] });
    const received: string[] = [];
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.on('data', (bytes: Buffer) => {
      received.push(bytes.toString('utf8'));
      if (received.join('').startsWith('HTTP/1.1 100 Continue\r\n\r\n') && received.length === 1) socket.write(body);
    });
    socket.write(
      `POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${apiKey}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\n\r\n`,
    );
    await new Promise<void>((resolve) => {
      const check = (): void => {
        if (received.join('').includes('Echo: continue')) resolve();
        else socket.once('data', check);
      };
      check();
    });
    socket.destroy();
    expect(received.join('')).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 OK\r\n/);
  });

  it("lets a user without balance through when the key's group charges nothing", async () => {
    const { billing } = gateway.running;
    const group = await gateway.createGroup(['*']);
    await billing.exclusive(() => billing.store.setGroupPriceRatio(group.id, 0));
    const user = await gateway.createUser();
    const key = await gateway.createKey({ user, group });
    await billing.refresh(true);
    const body = JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'free' }] });
    const exchange = await exchangeRawHttp({
      port,
      writes: [
        `POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key.secret}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      ],
      expectedResponses: 1,
    });
    expect(exchange.responses[0]?.status).toBe(200);
  });
});
