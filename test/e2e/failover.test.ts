import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { expectErrorResponseShape } from '../helpers/openai-response-shapes.js';
import {
  createOpenAiClient,
  postRawJson,
  readEventData,
  sendRawRequest,
  startTestGateway,
  type TestGateway,
} from '../helpers/start-test-gateway.js';
import { startOpenAiSimulator, type OpenAiSimulator } from '../simulators/openai-simulator.js';

const channelSecret = 'sk-upstream-failover-channel-secret';
/** A vendor key that does not look like `sk-…`, as Azure and many others issue them. */
const hexChannelSecret = '0f1e2d3c4b5a69788796a5b4c3d2e1f0';
/** How long the timeout gateway waits for upstream headers; the main gateway waits far longer than any test. */
const shortUpstreamHeadersTimeoutMs = 1000;
const question: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'are you there' }];

let simulator: OpenAiSimulator;
let chattyVendor: Server;
let chattyVendorUrl: string;
let gateway: TestGateway;
/** A second gateway with a short upstream headers timeout, so the main one's hanging requests end only by client aborts. */
let timeoutGateway: TestGateway;
let client: OpenAI;
let clientKey: string;

/** A vendor whose 400 answers quote its own URL and the key it received, as careless vendors do. */
async function startChattyVendor(): Promise<Server> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const receivedKey = (request.headers.authorization ?? '').replace(/^Bearer /, '');
      const message = `Invalid request to ${chattyVendorUrl}${request.url ?? ''} with key ${receivedKey}: 'messages' is too short.`;
      response.writeHead(400, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ error: { message, type: 'invalid_request_error', param: 'messages', code: null } }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  chattyVendorUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return server;
}

/** A local address where nothing listens. */
async function deadBaseUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  return `http://127.0.0.1:${port}/v1`;
}

/** Serves `publicModel` through one channel per upstream model name, tried in the order given. */
async function routeThroughChannels(
  publicModel: string,
  upstreams: Array<{ upstreamModel: string; baseUrl?: string; secret?: string }>,
  through: TestGateway = gateway,
): Promise<void> {
  for (const [position, upstream] of upstreams.entries()) {
    await through.createChannel({
      name: `${publicModel}-channel-${position}`,
      baseUrl: upstream.baseUrl ?? simulator.url,
      secret: upstream.secret ?? channelSecret,
      models: [publicModel],
      modelMapping: { [publicModel]: upstream.upstreamModel },
      priority: 100 - position,
      refreshRouting: false,
    });
  }
}

beforeAll(async () => {
  simulator = await startOpenAiSimulator({ apiKey: channelSecret });
  chattyVendor = await startChattyVendor();
  gateway = await startTestGateway();
  timeoutGateway = await startTestGateway({ config: { upstreamHeadersTimeoutMs: shortUpstreamHeadersTimeoutMs } });
  await routeThroughChannels(
    'failover-after-hang',
    [{ upstreamModel: 'sim-hang' }, { upstreamModel: 'healthy-after-hang' }],
    timeoutGateway,
  );
  await routeThroughChannels('failover-after-500', [
    { upstreamModel: 'sim-error-500' },
    { upstreamModel: 'healthy-after-500' },
  ]);
  await routeThroughChannels('failover-after-429', [
    { upstreamModel: 'sim-error-429' },
    { upstreamModel: 'healthy-after-429' },
  ]);
  await routeThroughChannels('failover-after-dead-port', [
    { upstreamModel: 'unreachable', baseUrl: await deadBaseUrl() },
    { upstreamModel: 'healthy-after-dead-port' },
  ]);
  await routeThroughChannels('every-channel-500', [
    { upstreamModel: 'sim-error-500' },
    { upstreamModel: 'sim-error-500' },
  ]);
  await routeThroughChannels('every-channel-503', [
    { upstreamModel: 'sim-error-503' },
    { upstreamModel: 'sim-error-503' },
  ]);
  await routeThroughChannels('every-channel-429', [
    { upstreamModel: 'sim-error-429' },
    { upstreamModel: 'sim-error-429' },
  ]);
  await routeThroughChannels('vendor-400', [
    { upstreamModel: 'sim-error-400' },
    { upstreamModel: 'never-asked-after-400' },
  ]);
  await routeThroughChannels('chatty-vendor-400', [{ upstreamModel: 'chatty', baseUrl: chattyVendorUrl }]);
  await routeThroughChannels('chatty-vendor-400-hex-key', [
    { upstreamModel: 'chatty', baseUrl: chattyVendorUrl, secret: hexChannelSecret },
  ]);
  await routeThroughChannels('broken-stream', [{ upstreamModel: 'sim-broken-stream' }]);
  await routeThroughChannels('hanging', [{ upstreamModel: 'sim-hang' }]);
  await routeThroughChannels('slow-stream', [{ upstreamModel: 'sim-slow-stream' }]);
  await timeoutGateway.refreshRouting();
  clientKey = (await gateway.createKey()).secret;
  client = createOpenAiClient(gateway, clientKey);
});

afterAll(async () => {
  await gateway?.close();
  await timeoutGateway?.close();
  await simulator?.close();
  await new Promise((resolve) => chattyVendor?.close(resolve));
});

beforeEach(() => simulator.reset());

function upstreamModelsTried(): unknown[] {
  return simulator.requests
    .filter((recorded) => recorded.path === '/v1/chat/completions')
    .map((recorded) => (recorded.body as { model?: unknown }).model);
}

/** How many /v1 requests the gateway finished with `status`, from its Prometheus counter. */
async function finishedRequestCount(on: TestGateway, status: string): Promise<number> {
  const metrics = await sendRawRequest(on, { path: '/metrics' });
  const line = metrics.text
    .split('\n')
    .find((candidate) => candidate.startsWith('gateway_requests_total{') && candidate.includes(`status="${status}"`));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

function ask(model: string) {
  return client.chat.completions.create({ model, messages: question });
}

async function rejectionOf(promise: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(OpenAI.APIError);
  return error as InstanceType<typeof OpenAI.APIError>;
}

describe('failover between channels of one model', () => {
  it('answers from the next channel when the first answers 500, after trying both', async () => {
    const completion = await ask('failover-after-500');
    expect(completion.choices[0]?.message.content).toBe('Echo: are you there');
    expect(upstreamModelsTried()).toEqual(['sim-error-500', 'healthy-after-500']);
  });

  it('answers from the next channel when the first is rate limited (429)', async () => {
    const completion = await ask('failover-after-429');
    expect(completion.choices[0]?.message.content).toBe('Echo: are you there');
    expect(upstreamModelsTried()).toEqual(['sim-error-429', 'healthy-after-429']);
  });

  it('answers from the next channel when nothing listens at the first channel', async () => {
    const completion = await ask('failover-after-dead-port');
    expect(completion.choices[0]?.message.content).toBe('Echo: are you there');
    expect(upstreamModelsTried()).toEqual(['healthy-after-dead-port']);
  });

  it('answers from the next channel when the first never sends its headers within the timeout', async () => {
    const abortedBefore = simulator.abortedRequestCount();
    const timeoutClient = createOpenAiClient(timeoutGateway, (await timeoutGateway.createKey()).secret);
    const completion = await timeoutClient.chat.completions.create({
      model: 'failover-after-hang',
      messages: question,
    });
    expect(completion.choices[0]?.message.content).toBe('Echo: are you there');
    expect(upstreamModelsTried()).toEqual(['sim-hang', 'healthy-after-hang']);
    await vi.waitFor(() => expect(simulator.abortedRequestCount()).toBe(abortedBefore + 1), { timeout: 5000 });
  });

  it('fails a stream over to the next channel when the first fails before any byte reached the client', async () => {
    const response = await postRawJson(gateway, clientKey, '/v1/chat/completions', {
      model: 'failover-after-500',
      messages: question,
      stream: true,
    });
    expect(response.status).toBe(200);
    expect(response.text.endsWith('data: [DONE]\n\n')).toBe(true);
    expect(upstreamModelsTried()).toEqual(['sim-error-500', 'healthy-after-500']);
  });
});

describe('when every channel fails', () => {
  it('answers 500 server_error when every channel answers 500, after trying each', async () => {
    const error = await rejectionOf(ask('every-channel-500'));
    expect(error).toBeInstanceOf(OpenAI.InternalServerError);
    expect(error).toMatchObject({ status: 500, code: 'server_error', type: 'server_error' });
    expect(upstreamModelsTried()).toEqual(['sim-error-500', 'sim-error-500']);
  });

  it('answers 503 when every channel answers 503', async () => {
    const response = await postRawJson(gateway, clientKey, '/v1/chat/completions', {
      model: 'every-channel-503',
      messages: question,
    });
    expect(response.status).toBe(503);
    expect(expectErrorResponseShape(response.json()).type).toBe('server_error');
  });

  it('answers 429 with a retry-after header when every channel is rate limited', async () => {
    const error = await rejectionOf(ask('every-channel-429'));
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect(error.status).toBe(429);
    expect(error.headers?.get('retry-after')).toBe('1');
    expect(upstreamModelsTried()).toEqual(['sim-error-429', 'sim-error-429']);
  });

  it('answers a failed stream request with a JSON error, not an event stream, when no channel could start it', async () => {
    const response = await postRawJson(gateway, clientKey, '/v1/chat/completions', {
      model: 'every-channel-500',
      messages: question,
      stream: true,
    });
    expect(response.status).toBe(500);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(expectErrorResponseShape(response.json()).code).toBe('server_error');
  });
});

describe('upstream request errors', () => {
  it("passes an upstream 400 through with the vendor's message and does not try another channel", async () => {
    const error = await rejectionOf(ask('vendor-400'));
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error.message).toContain('Simulated bad request: the request was rejected by the vendor.');
    expect(upstreamModelsTried()).toEqual(['sim-error-400']);
  });

  it("keeps the vendor's wording and param of a 400 but never its URL or the channel secret", async () => {
    const response = await postRawJson(gateway, clientKey, '/v1/chat/completions', {
      model: 'chatty-vendor-400',
      messages: question,
    });
    expect(response.status).toBe(400);
    const error = expectErrorResponseShape(response.json());
    expect(error).toMatchObject({ type: 'invalid_request_error', param: 'messages' });
    expect(error.message).toContain("'messages' is too short.");
    expect(response.text).not.toContain(chattyVendorUrl);
    expect(response.text).not.toContain(new URL(chattyVendorUrl).host);
    expect(response.text).not.toContain(channelSecret);
  });

  it('never shows the client a channel secret that does not look like an sk- key, even when the vendor quotes it', async () => {
    const response = await postRawJson(gateway, clientKey, '/v1/chat/completions', {
      model: 'chatty-vendor-400-hex-key',
      messages: question,
    });
    expect(response.status).toBe(400);
    expect(response.text).not.toContain(hexChannelSecret);
    expect(response.text).not.toContain(new URL(chattyVendorUrl).host);
  });
});

describe('failures after the first byte', () => {
  it('answers 502 upstream_error rather than half a body when a non-streamed answer is cut off midway', async () => {
    const response = await postRawJson(gateway, clientKey, '/v1/chat/completions', {
      model: 'broken-stream',
      messages: question,
    });
    expect(response.status).toBe(502);
    expect(expectErrorResponseShape(response.json())).toMatchObject({ type: 'server_error', code: 'upstream_error' });
  });

  it('delivers the first chunks of a stream that breaks, then makes the SDK throw', async () => {
    const stream = await client.chat.completions.create({
      model: 'broken-stream',
      messages: [{ role: 'user', content: 'one two three four five six' }],
      stream: true,
    });
    const received: string[] = [];
    const error = await (async () => {
      for await (const chunk of stream) received.push(chunk.choices[0]?.delta.content ?? '');
    })().then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(received.join('')).toBe('Echo: one ');
    expect(error).toBeInstanceOf(OpenAI.APIError);
  });

  it('ends a broken stream with an error event in the OpenAI error shape and no [DONE]', async () => {
    const response = await postRawJson(gateway, clientKey, '/v1/chat/completions', {
      model: 'broken-stream',
      messages: question,
      stream: true,
    });
    expect(response.status).toBe(200);
    const events = readEventData(response.text);
    expect(events).not.toContain('[DONE]');
    expect(response.text).not.toContain('[DONE]');
    const lastEvent = JSON.parse(events.at(-1) ?? 'null') as unknown;
    expect(expectErrorResponseShape(lastEvent).type).toBe('server_error');
    expect(events.length).toBeGreaterThan(1);
  });
});

describe('client aborts', () => {
  it('keeps waiting for the vendor when the client leaves a non-streamed request, until the headers timeout, and tries no other channel', async () => {
    const abortedBefore = simulator.abortedRequestCount();
    const timeoutClient = createOpenAiClient(timeoutGateway, (await timeoutGateway.createKey()).secret);
    const controller = new AbortController();
    const pending = timeoutClient.chat.completions.create(
      { model: 'failover-after-hang', messages: question },
      { signal: controller.signal },
    );
    await vi.waitFor(() => expect(upstreamModelsTried()).toContain('sim-hang'), { timeout: 5000 });
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(OpenAI.APIUserAbortError);
    // The vendor is given up at the gateway's headers timeout (not when the client left) and the request ends as the client's 499.
    await vi.waitFor(
      async () => {
        expect(await finishedRequestCount(timeoutGateway, '499')).toBe(1);
        expect(simulator.abortedRequestCount()).toBe(abortedBefore + 1);
      },
      { timeout: 5000, interval: 20 },
    );
    expect(upstreamModelsTried()).toEqual(['sim-hang']);
  });

  it('reads the upstream stream on to its end when the client aborts in the middle of a slow stream (for its usage)', async () => {
    const abortedBefore = simulator.abortedRequestCount();
    const leftBefore = await finishedRequestCount(gateway, '499');
    const controller = new AbortController();
    const fullAnswer = 'Echo: a long answer with many words in it to stream slowly';
    const stream = await client.chat.completions.create(
      { model: 'slow-stream', messages: [{ role: 'user', content: fullAnswer.slice('Echo: '.length) }], stream: true },
      { signal: controller.signal },
    );
    const received: string[] = [];
    // The SDK ends the iteration quietly when its own signal aborts it.
    for await (const chunk of stream) {
      received.push(chunk.choices[0]?.delta.content ?? '');
      if (received.join('').length > 0) controller.abort();
    }
    expect(received.join('').length).toBeGreaterThan(0);
    expect(received.join('').length).toBeLessThan(fullAnswer.length);
    // The request ends as the client's 499 once the vendor's stream ended; the gateway never closed the vendor's connection.
    await vi.waitFor(async () => expect(await finishedRequestCount(gateway, '499')).toBe(leftBefore + 1), {
      timeout: 5000,
      interval: 20,
    });
    expect(simulator.abortedRequestCount()).toBe(abortedBefore);
  });

  it('keeps serving requests after aborted, broken and failed ones', async () => {
    const completion = await ask('failover-after-500');
    expect(completion.choices[0]?.message.content).toBe('Echo: are you there');
  });
});
