// Slow bodies cannot take the service away. The global in-flight cap counts a request once it is authenticated and its
// body has arrived, so bodies trickling in (signed in or not) hold none of it; each client address has its own small
// cap counted from the first byte, so one address's slow bodies leave other addresses served; and a body without an
// API key or session (the console sign-in) gets a short deadline, then 408 in OpenAI's shape and a closed connection.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayConfig } from '../../src/config/gateway-config.js';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';
import { startOpenAiSimulator, type OpenAiSimulator } from '../simulators/openai-simulator.js';
import { encodeRawRequest, exchangeRawHttp, type RawHttpExchange } from './raw-http-exchange.js';

const upstreamSecret = 'sk-upstream-slow-bodies';
/** A second loopback address: Linux answers all of 127.0.0.0/8, so a client bound to it is another address. */
const otherAddress = '127.0.0.2';

/** A socket that sent a request head announcing 1,000 body bytes and then one byte of it, and waits. */
function startSlowBody(port: number, head: string, localAddress = '127.0.0.1'): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress }, () => {
      socket.write(`${head}Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`, () => resolve(socket));
    });
    socket.on('error', reject);
  });
}

function loginHead(): string {
  return 'POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\n';
}

function chatHead(apiKey: string): string {
  return `POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${apiKey}\r\n`;
}

function chat(port: number, apiKey: string, socket?: net.Socket): Promise<RawHttpExchange> {
  const body = JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
  const request = encodeRawRequest({
    method: 'POST',
    path: '/v1/chat/completions',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body,
  });
  return exchangeRawHttp({ port, writes: [request], expectedResponses: 1, ...(socket ? { socket } : {}) });
}

function connectFrom(port: number, localAddress: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress }, () => resolve(socket));
    socket.on('error', reject);
  });
}

async function startGatewayWith(
  config: Partial<GatewayConfig>,
): Promise<{ gateway: TestGateway; simulator: OpenAiSimulator; apiKey: string; port: number }> {
  const simulator = await startOpenAiSimulator({ apiKey: upstreamSecret });
  const gateway = await startTestGateway({ config });
  await gateway.createChannel({ baseUrl: simulator.url, secret: upstreamSecret, models: ['gpt-4o'] });
  const apiKey = (await gateway.createKey()).secret;
  return { gateway, simulator, apiKey, port: Number(new URL(gateway.url).port) };
}

describe('the global in-flight cap and slow bodies', () => {
  let setup: Awaited<ReturnType<typeof startGatewayWith>>;
  const held: net.Socket[] = [];

  beforeAll(async () => {
    setup = await startGatewayWith({
      maxInFlightRequests: 10,
      maxInFlightPerAddress: 0,
      unauthenticatedBodyTimeoutMs: 60_000,
    });
  });

  afterAll(async () => {
    for (const socket of held) socket.destroy();
    await setup?.gateway.close();
    await setup?.simulator.close();
  });

  it('serves /v1 while 25 unauthenticated sign-in bodies trickle in (they hold none of the cap of 10)', async () => {
    for (let index = 0; index < 25; index++) held.push(await startSlowBody(setup.port, loginHead()));
    const served = await chat(setup.port, setup.apiKey);
    expect(served.responses[0]?.status).toBe(200);
  });

  it('serves /v1 while 25 authenticated bodies trickle in', async () => {
    for (let index = 0; index < 25; index++) held.push(await startSlowBody(setup.port, chatHead(setup.apiKey)));
    const served = await chat(setup.port, setup.apiKey);
    expect(served.responses[0]?.status).toBe(200);
  });
});

describe('the per-address in-flight cap', () => {
  let setup: Awaited<ReturnType<typeof startGatewayWith>>;
  const held: net.Socket[] = [];

  beforeAll(async () => {
    setup = await startGatewayWith({
      maxInFlightRequests: 4,
      maxInFlightPerAddress: 4,
      unauthenticatedBodyTimeoutMs: 60_000,
    });
  });

  afterAll(async () => {
    for (const socket of held) socket.destroy();
    await setup?.gateway.close();
    await setup?.simulator.close();
  });

  it('refuses the address holding its cap with slow bodies (429, Retry-After) and serves another address', async () => {
    for (let index = 0; index < 4; index++)
      held.push(await startSlowBody(setup.port, chatHead(setup.apiKey), otherAddress));
    const refused = await chat(setup.port, setup.apiKey, await connectFrom(setup.port, otherAddress));
    expect(refused.responses[0]?.status).toBe(429);
    expect(JSON.parse(refused.responses[0]?.body ?? '{}')).toMatchObject({
      error: { type: 'rate_limit_error', code: 'rate_limit_exceeded' },
    });
    expect(refused.responses[0]?.headers['retry-after']).toBe('1');
    const served = await chat(setup.port, setup.apiKey);
    expect(served.responses[0]?.status).toBe(200);
  });

  it("frees the address's slots when its requests end", async () => {
    for (const socket of held.splice(0)) {
      await new Promise((resolve) => {
        socket.once('close', resolve);
        socket.destroy();
      });
    }
    const served = await chat(setup.port, setup.apiKey, await connectFrom(setup.port, otherAddress));
    expect(served.responses[0]?.status).toBe(200);
  });
});

describe('the deadline for unauthenticated bodies', () => {
  let setup: Awaited<ReturnType<typeof startGatewayWith>>;

  beforeAll(async () => {
    setup = await startGatewayWith({ unauthenticatedBodyTimeoutMs: 500 });
  });

  afterAll(async () => {
    await setup?.gateway.close();
    await setup?.simulator.close();
  });

  it('answers a sign-in body that has not arrived by the deadline with 408 request_timeout and closes the connection', async () => {
    const exchange = await exchangeRawHttp({
      port: setup.port,
      writes: [`${loginHead()}Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`],
      expectedResponses: 1,
      awaitClose: true,
      timeoutMs: 10_000,
    });
    expect(exchange.responses[0]?.status).toBe(408);
    expect(JSON.parse(exchange.responses[0]?.body ?? '{}')).toMatchObject({ error: { code: 'request_timeout' } });
    expect(exchange.responses[0]?.headers.connection).toBe('close');
    expect(exchange.closedByServer).toBe(true);
  });

  it('lets an authenticated body take longer than that deadline', async () => {
    const body = JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
    const exchange = await exchangeRawHttp({
      port: setup.port,
      writes: [
        `${chatHead(setup.apiKey)}Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
        { pauseMs: 1_000 },
        body.slice(5),
      ],
      expectedResponses: 1,
    });
    expect(exchange.responses[0]?.status).toBe(200);
  });

  it('lets a sign-in body that arrives in time through to the route', async () => {
    const body = JSON.stringify({ email: 'nobody@example.com', password: 'wrong password' });
    const exchange = await exchangeRawHttp({
      port: setup.port,
      writes: [`${loginHead()}Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`],
      expectedResponses: 1,
    });
    expect(exchange.responses[0]?.status).not.toBe(408);
    expect(exchange.responses[0]?.status).toBeLessThan(500);
  });
});
