// Limits that hold under hostile clients: header and request timeouts (408, in OpenAI's shape), streams not cut
// by the request timeout, a per-address connection cap (429), a global in-flight cap (503 with Retry-After), a
// per-user in-flight cap (429),
// refusals during shutdown in OpenAI's shape, and a deadline for clients that stop reading a stream.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createOpenAiClient,
  startTestGateway,
  type TestGateway,
  type TestGatewayOptions,
} from '../helpers/start-test-gateway.js';
import { startOpenAiSimulator, type OpenAiSimulator } from '../simulators/openai-simulator.js';
import { encodeRawRequest, exchangeRawHttp, type RawHttpExchange } from './raw-http-exchange.js';

const upstreamSecret = 'sk-upstream-limits';

/** A gateway with one simulator channel; public models map to the simulator's special models. */
async function startLimitedGateway(
  options: TestGatewayOptions,
  modelMapping: Record<string, string>,
): Promise<{ gateway: TestGateway; simulator: OpenAiSimulator; apiKey: string; port: number }> {
  const simulator = await startOpenAiSimulator({ apiKey: upstreamSecret });
  const gateway = await startTestGateway(options);
  await gateway.createChannel({
    baseUrl: simulator.url,
    secret: upstreamSecret,
    models: ['gpt-4o', ...Object.keys(modelMapping)],
    modelMapping,
  });
  const apiKey = (await gateway.createKey()).secret;
  return { gateway, simulator, apiKey, port: Number(new URL(gateway.url).port) };
}

function chatRequest(apiKey: string, body: Record<string, unknown>): Buffer {
  return encodeRawRequest({
    method: 'POST',
    path: '/v1/chat/completions',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

function expectOpenAiError(exchange: RawHttpExchange, status: number, code: string): void {
  expect(exchange.responses[0]?.status).toBe(status);
  expect(JSON.parse(exchange.responses[0]?.body ?? '{}')).toEqual({
    error: { message: expect.any(String), type: expect.any(String), param: null, code },
  });
}

function connectIdle(port: number): Promise<net.Socket> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' }, () => resolve(socket));
    socket.on('error', () => undefined);
  });
}

describe('client timeouts', () => {
  let setup: Awaited<ReturnType<typeof startLimitedGateway>>;

  beforeAll(async () => {
    setup = await startLimitedGateway(
      { config: { headersTimeoutMs: 300, requestTimeoutMs: 1_000 } },
      { 'gpt-4o-mini': 'sim-paced-15x100' },
    );
  });
  afterAll(async () => {
    await setup?.gateway.close();
    await setup?.simulator.close();
  });

  it('answers a client that stops in the middle of its headers with 408 and closes', async () => {
    const exchange = await exchangeRawHttp({
      port: setup.port,
      writes: ['POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n'],
      expectedResponses: 1,
      awaitClose: true,
    });
    expectOpenAiError(exchange, 408, 'request_timeout');
    expect(exchange.responses[0]?.headers.connection).toBe('close');
    expect(exchange.closedByServer).toBe(true);
  });

  it('answers a client that stops in the middle of its body with 408 and closes', async () => {
    const request = chatRequest(setup.apiKey, { model: 'gpt-4o', messages: [{ role: 'user', content: 'hello' }] });
    const exchange = await exchangeRawHttp({
      port: setup.port,
      writes: [request.subarray(0, request.length - 4)],
      expectedResponses: 1,
      awaitClose: true,
    });
    expectOpenAiError(exchange, 408, 'request_timeout');
    expect(exchange.closedByServer).toBe(true);
  });

  it('lets a stream run longer than the request timeout once the request was received', async () => {
    const client = createOpenAiClient(setup.gateway, setup.apiKey);
    const stream = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'one two three' }],
      stream: true,
    });
    const words: string[] = [];
    for await (const chunk of stream) words.push(chunk.choices[0]?.delta.content ?? '');
    // 15 words, 100 ms apart: the stream outlives the 1 s request timeout and still ends with [DONE].
    expect(words.join('').split(' ').filter(Boolean)).toHaveLength(15);
  });
});

describe('connections per client address', () => {
  let setup: Awaited<ReturnType<typeof startLimitedGateway>>;

  beforeAll(async () => {
    setup = await startLimitedGateway({ config: { maxConnectionsPerAddress: 3 } }, {});
  });
  afterAll(async () => {
    await setup?.gateway.close();
    await setup?.simulator.close();
  });

  it('answers a request on a connection over the cap with 429 and closes it, and serves again once one closes', async () => {
    const held = await Promise.all([connectIdle(setup.port), connectIdle(setup.port), connectIdle(setup.port)]);
    const refused = await exchangeRawHttp({
      port: setup.port,
      writes: [
        encodeRawRequest({ method: 'GET', path: '/v1/models', headers: { authorization: `Bearer ${setup.apiKey}` } }),
      ],
      expectedResponses: 1,
      awaitClose: true,
    });
    expectOpenAiError(refused, 429, 'rate_limit_exceeded');
    expect(refused.responses[0]?.headers['retry-after']).toBe('1');
    expect(refused.closedByServer).toBe(true);

    const closed = held.pop() as net.Socket;
    await new Promise((resolve) => {
      closed.once('close', resolve);
      closed.destroy();
    });
    await vi.waitFor(async () => {
      const served = await exchangeRawHttp({
        port: setup.port,
        writes: [
          encodeRawRequest({ method: 'GET', path: '/v1/models', headers: { authorization: `Bearer ${setup.apiKey}` } }),
        ],
        expectedResponses: 1,
      });
      expect(served.responses[0]?.status).toBe(200);
    });
    for (const socket of held) socket.destroy();
  });

  it('drops a connection over the cap that sends nothing', async () => {
    // The connections of the test before must be gone on the server's side too.
    const { server } = setup.gateway.running.app;
    await vi.waitFor(
      () =>
        new Promise<void>((resolve, reject) =>
          server.getConnections((error, count) =>
            error || count > 0 ? reject(new Error(`${count} open`)) : resolve(),
          ),
        ),
    );
    const held = await Promise.all([connectIdle(setup.port), connectIdle(setup.port), connectIdle(setup.port)]);
    const silent = await connectIdle(setup.port);
    await new Promise((resolve) => silent.once('close', resolve));
    expect(held.every((socket) => !socket.destroyed)).toBe(true);
    for (const socket of held) socket.destroy();
  });
});

describe('requests in flight', () => {
  let setup: Awaited<ReturnType<typeof startLimitedGateway>>;

  beforeAll(async () => {
    setup = await startLimitedGateway({ config: { maxInFlightRequests: 2 } }, { 'gpt-4o-mini': 'sim-hang' });
  });
  afterAll(async () => {
    await setup?.gateway.close();
    await setup?.simulator.close();
  });

  it('answers 503 with Retry-After beyond the cap, keeps /healthz reachable, and serves again when a slot frees', async () => {
    const hanging = [0, 1].map(() => net.connect({ port: setup.port, host: '127.0.0.1' }));
    for (const socket of hanging) {
      socket.on('error', () => undefined);
      socket.write(chatRequest(setup.apiKey, { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'wait' }] }));
    }
    await vi.waitFor(() => expect(setup.simulator.requests).toHaveLength(2));

    const refused = await exchangeRawHttp({
      port: setup.port,
      writes: [chatRequest(setup.apiKey, { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })],
      expectedResponses: 1,
    });
    expectOpenAiError(refused, 503, 'service_unavailable');
    expect(refused.responses[0]?.headers['retry-after']).toBe('1');
    const health = await exchangeRawHttp({
      port: setup.port,
      writes: [encodeRawRequest({ method: 'GET', path: '/healthz' })],
      expectedResponses: 1,
    });
    expect(health.responses[0]?.status).toBe(200);

    for (const socket of hanging) socket.destroy();
    await vi.waitFor(async () => {
      const served = await exchangeRawHttp({
        port: setup.port,
        writes: [chatRequest(setup.apiKey, { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })],
        expectedResponses: 1,
      });
      expect(served.responses[0]?.status).toBe(200);
    });
  });
});

describe('requests in flight per user', () => {
  let setup: Awaited<ReturnType<typeof startLimitedGateway>>;

  beforeAll(async () => {
    setup = await startLimitedGateway(
      { config: { maxInFlightRequests: 8, maxInFlightPerUser: 2 } },
      { 'gpt-4o-mini': 'sim-hang', 'gpt-4o-stream': 'sim-paced-3x100' },
    );
  });
  afterAll(async () => {
    await setup?.gateway.close();
    await setup?.simulator.close();
  });

  function hang(apiKey: string): net.Socket {
    const socket = net.connect({ port: setup.port, host: '127.0.0.1' });
    socket.on('error', () => undefined);
    socket.write(chatRequest(apiKey, { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'wait' }] }));
    return socket;
  }

  function chatOnce(apiKey: string, body: Record<string, unknown> = {}): Promise<RawHttpExchange> {
    return exchangeRawHttp({
      port: setup.port,
      writes: [chatRequest(apiKey, { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], ...body })],
      expectedResponses: 1,
    });
  }

  it("refuses a user's request beyond their share with 429 and Retry-After, across their keys, and serves others", async () => {
    const secondKey = (await setup.gateway.createKey()).secret;
    const otherUser = await setup.gateway.createUser();
    const otherKey = (await setup.gateway.createKey({ user: otherUser })).secret;
    const hanging = [hang(setup.apiKey), hang(secondKey)];
    await vi.waitFor(() => expect(setup.simulator.requests).toHaveLength(2));

    const refused = await chatOnce(setup.apiKey);
    expectOpenAiError(refused, 429, 'rate_limit_exceeded');
    expect(refused.responses[0]?.headers['retry-after']).toBe('1');
    expect(JSON.parse(refused.responses[0]?.body ?? '{}').error.type).toBe('rate_limit_error');
    expect((await chatOnce(otherKey)).responses[0]?.status).toBe(200);

    // A client that goes away gives its slot back.
    for (const socket of hanging) socket.destroy();
    await vi.waitFor(async () => expect((await chatOnce(setup.apiKey)).responses[0]?.status).toBe(200));
  });

  it('gives the slots back after finished, failed and streamed requests', async () => {
    for (let round = 0; round < 3; round++) {
      expect((await chatOnce(setup.apiKey)).responses[0]?.status).toBe(200);
      expect((await chatOnce(setup.apiKey, { model: 'no-such-model' })).responses[0]?.status).toBe(404);
      const streamed = await chatOnce(setup.apiKey, { model: 'gpt-4o-stream', stream: true });
      expect(streamed.responses[0]?.status).toBe(200);
    }
    const both = await Promise.all([chatOnce(setup.apiKey), chatOnce(setup.apiKey)]);
    expect(both.map((exchange) => exchange.responses[0]?.status)).toEqual([200, 200]);
  });
});

describe('shutdown', () => {
  it('answers a request that arrives while the gateway closes with an OpenAI-shaped 503', async () => {
    const setup = await startLimitedGateway({}, { 'gpt-4o-mini': 'sim-hang' });
    // A request in flight keeps the close waiting; a second connection is mid-request when it starts.
    const hanging = net.connect({ port: setup.port, host: '127.0.0.1' });
    hanging.on('error', () => undefined);
    hanging.write(chatRequest(setup.apiKey, { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'wait' }] }));
    await vi.waitFor(() => expect(setup.simulator.requests).toHaveLength(1));
    const late = await connectIdle(setup.port);
    const request = encodeRawRequest({
      method: 'GET',
      path: '/v1/models',
      headers: { authorization: `Bearer ${setup.apiKey}` },
    });
    late.write(request.subarray(0, 10));

    const closing = setup.gateway.running.close();
    await vi.waitFor(() => expect(setup.gateway.running.app.server.listening).toBe(false));
    const exchange = await exchangeRawHttp({
      port: setup.port,
      socket: late,
      writes: [request.subarray(10)],
      expectedResponses: 1,
    });
    expectOpenAiError(exchange, 503, 'service_unavailable');
    expect(exchange.responses[0]?.headers.connection).toBe('close');

    hanging.destroy();
    await closing;
    await setup.simulator.close();
  });
});

describe('clients that stop reading a stream', () => {
  let setup: Awaited<ReturnType<typeof startLimitedGateway>>;

  beforeAll(async () => {
    setup = await startLimitedGateway(
      { billing: { enabled: true }, config: { streamWriteTimeoutMs: 300 } },
      { 'gpt-4o-mini': 'sim-paced-60000x0' },
    );
  });
  afterAll(async () => {
    await setup?.gateway.close();
    await setup?.simulator.close();
  });

  it('cuts the stream after the write deadline: upstream aborted, connection closed, the request settled and billed', async () => {
    const { running } = setup.gateway;
    const user = await setup.gateway.createUser();
    const apiKey = (await setup.gateway.createKey({ user })).secret;
    await running.billing.changeBalance({
      userId: user.id,
      kind: 'top-up',
      amount: 1_000_000_000_000,
      description: 'test',
    });
    const balanceBefore = running.billing.memory.user(user.id).balance;

    // Long words make a stream of tens of megabytes, far more than socket buffers hold.
    const socket = net.connect({ port: setup.port, host: '127.0.0.1' });
    socket.on('error', () => undefined);
    socket.write(
      chatRequest(apiKey, {
        model: 'gpt-4o-mini',
        stream: true,
        messages: [{ role: 'user', content: 'w'.repeat(1000) }],
      }),
    );
    // The client never reads: the gateway's writes stall until the deadline cuts the stream.
    await vi.waitFor(() => expect(setup.simulator.abortedRequestCount()).toBe(1), { timeout: 20_000 });
    await vi.waitFor(() => expect(running.billing.memory.user(user.id).held).toBe(0), { timeout: 20_000 });
    expect(running.billing.memory.user(user.id).balance).toBeLessThan(balanceBefore);

    // What was sent before the cut is still readable; then the connection ends, without [DONE].
    const received: Buffer[] = [];
    socket.on('data', (bytes: Buffer) => received.push(bytes));
    await new Promise((resolve) => socket.once('close', resolve));
    const text = Buffer.concat(received).toString('utf8');
    expect(text).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(text).not.toContain('data: [DONE]');
  }, 60_000);
});
