import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorResponseShape } from '../helpers/openai-response-shapes.js';
import {
  postRawJson,
  readEventData,
  startTestGateway,
  type RawResponse,
  type TestGateway,
} from '../helpers/start-test-gateway.js';

// A vendor that keeps sending one byte at a time never trips the body timeout, which measures the silence between
// chunks (issue 37, "never a hang past the configured timeouts"): GATEWAY_UPSTREAM_ANSWER_TIMEOUT_MS bounds a
// non-streamed answer as a whole, and leaves streams alone.

const channelSecret = 'plain-channel-key-0123456789abcdef';
/** The gateway's deadline for a whole non-streamed answer. */
const answerTimeoutMs = 1_500;
/** How often the trickling vendor sends a byte or an event: well within the body timeout below. */
const trickleIntervalMs = 200;
/** How long the trickled stream lasts: longer than the answer deadline. */
const streamDurationMs = 2_500;
/** The longest a test waits for the gateway's answer: without the deadline a trickled answer never comes. */
const answerWaitMs = 10_000;

let vendor: Server;
let vendorUrl: string;
let gateway: TestGateway;
let clientKey: string;
/** The vendor's connections, by the upstream model asked for, each with when it closed. */
const connections = new Map<string, { socket: Socket; closed: Promise<void> }>();
const trickles = new Set<NodeJS.Timeout>();

function trickle(response: ServerResponse, send: (count: number) => 'more' | 'done'): void {
  let count = 0;
  const timer = setInterval(() => {
    count += 1;
    if (send(count) === 'done') stop();
  }, trickleIntervalMs);
  const stop = (): void => {
    clearInterval(timer);
    trickles.delete(timer);
  };
  trickles.add(timer);
  response.on('close', stop);
}

function chunk(content: string): string {
  return `data: ${JSON.stringify({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [{ index: 0, delta: { content }, finish_reason: null }],
  })}\n\n`;
}

function answer(request: IncomingMessage, response: ServerResponse, body: string): void {
  const model = String((JSON.parse(body) as { model?: unknown }).model);
  const socket = request.socket;
  connections.set(model, {
    socket,
    closed: new Promise((resolve) => (socket.destroyed ? resolve() : socket.once('close', () => resolve()))),
  });
  switch (model) {
    case 'trickle-forever':
      // An answer's head, then one byte every 200 ms, forever.
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"id":"chatcmpl-1","object":"chat.completion","choices":[');
      trickle(response, () => {
        response.write(' ');
        return 'more';
      });
      return;
    case 'stream-trickle':
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      trickle(response, (count) => {
        if (count * trickleIntervalMs < streamDurationMs) {
          response.write(chunk(`part ${count} `));
          return 'more';
        }
        response.end('data: [DONE]\n\n');
        return 'done';
      });
      return;
    default:
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          id: 'chatcmpl-2',
          object: 'chat.completion',
          created: 1,
          model: 'm',
          choices: [{ index: 0, message: { role: 'assistant', content: `Echo from ${model}` }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
        }),
      );
  }
}

async function startTricklingVendor(): Promise<Server> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (bytes: Buffer) => chunks.push(bytes));
    request.on('end', () => answer(request, response, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  vendorUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return server;
}

/** Serves `publicModel` through one channel per upstream model name, tried in the order given. */
async function route(publicModel: string, upstreamModels: string[]): Promise<void> {
  for (const [position, upstreamModel] of upstreamModels.entries()) {
    await gateway.createChannel({
      name: `${publicModel}-${position}`,
      baseUrl: `${vendorUrl}/v1`,
      secret: channelSecret,
      models: [publicModel],
      modelMapping: { [publicModel]: upstreamModel },
      priority: 100 - position,
      refreshRouting: false,
    });
  }
}

/** `promise`, or a rejection naming `what` when it takes longer than `milliseconds`. */
async function within<T>(promise: Promise<T>, milliseconds: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${milliseconds} ms`)), milliseconds);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

function chat(model: string, stream = false): Promise<RawResponse> {
  return within(
    postRawJson(gateway, clientKey, '/v1/chat/completions', {
      model,
      stream,
      messages: [{ role: 'user', content: 'are you there' }],
    }),
    answerWaitMs,
    'the gateway answer',
  );
}

beforeAll(async () => {
  vendor = await startTricklingVendor();
  gateway = await startTestGateway({
    config: { upstreamAnswerTimeoutMs: answerTimeoutMs, upstreamBodyTimeoutMs: 1_000 },
  });
  await route('only-trickle-forever', ['trickle-forever']);
  await route('failover-after-trickle', ['trickle-forever', 'healthy-after-trickle']);
  await route('only-stream-trickle', ['stream-trickle']);
  await gateway.refreshRouting();
  clientKey = (await gateway.createKey()).secret;
});

afterAll(async () => {
  for (const timer of trickles) clearInterval(timer);
  await gateway?.close();
  vendor?.closeAllConnections();
  await new Promise((resolve) => vendor?.close(resolve));
});

describe('GATEWAY_UPSTREAM_ANSWER_TIMEOUT_MS', () => {
  it('answers 504 upstream_timeout to a non-streamed answer trickled forever, and closes the vendor connection', async () => {
    const startedAt = Date.now();
    const response = await chat('only-trickle-forever');
    expect(response.status).toBe(504);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(expectErrorResponseShape(response.json())).toMatchObject({ type: 'server_error', code: 'upstream_timeout' });
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(answerTimeoutMs - 100);
    const connection = connections.get('trickle-forever');
    expect(connection).toBeDefined();
    await within(connection?.closed ?? Promise.resolve(), 2_000, "closing the vendor's connection");
  });

  it('answers 504 upstream_timeout to an embeddings answer (streamed through when it has no length) trickled forever', async () => {
    const response = await within(
      postRawJson(gateway, clientKey, '/v1/embeddings', { model: 'only-trickle-forever', input: 'hello' }),
      answerWaitMs,
      'the gateway answer',
    );
    expect(response.status).toBe(504);
    expect(expectErrorResponseShape(response.json())).toMatchObject({ code: 'upstream_timeout' });
  });

  it('fails over to the next channel when a trickled answer passes the deadline', async () => {
    const response = await chat('failover-after-trickle');
    expect(response.status).toBe(200);
    expect(JSON.stringify(response.json())).toContain('Echo from healthy-after-trickle');
  });

  it('does not cut a stream that trickles events for longer than the deadline', async () => {
    const response = await chat('only-stream-trickle', true);
    expect(response.status).toBe(200);
    const events = readEventData(response.text);
    expect(events.at(-1)).toBe('[DONE]');
    const parts = events.filter((event) => event.includes('part '));
    expect(parts.length).toBe(Math.ceil(streamDurationMs / trickleIntervalMs) - 1);
  });
});
