// What is forwarded is what was validated: a JSON body that starts with a UTF-8 byte-order mark is read without it
// (as JSON parsers do) and forwarded without it, on every JSON endpoint, so a vendor that refuses a BOM (as OpenAI's
// API does) never turns the client's valid request into a 500. The upstream here is a strict proxy in front of the
// simulator: it records each body's first bytes and refuses a body that starts with a BOM with 400.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendRawRequest, startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';
import { undiciTestAgent } from '../helpers/undici-test-agent.js';
import { startOpenAiSimulator, type OpenAiSimulator } from '../simulators/openai-simulator.js';

const upstreamSecret = 'sk-upstream-bom';
const byteOrderMark = Buffer.from([0xef, 0xbb, 0xbf]);

/** A proxy to the simulator that refuses BOM-prefixed bodies and records the first bytes of every body it got. */
async function startStrictProxy(
  target: OpenAiSimulator,
): Promise<{ url: string; firstBytes: Buffer[]; close(): Promise<void> }> {
  const firstBytes: Buffer[] = [];
  const server = http.createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks);
      firstBytes.push(body.subarray(0, 3));
      if (body.subarray(0, 3).equals(byteOrderMark)) {
        outgoing.writeHead(400, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            error: {
              message: 'We could not parse the JSON body of your request.',
              type: 'invalid_request_error',
              param: null,
              code: null,
            },
          }),
        );
        return;
      }
      const headers = { ...incoming.headers, host: `127.0.0.1:${target.port}` };
      delete headers['content-length'];
      request(`http://127.0.0.1:${target.port}${incoming.url ?? '/'}`, {
        method: 'POST',
        headers,
        body,
        dispatcher: undiciTestAgent,
      }).then(
        async (answer) => {
          const text = await answer.body.text();
          outgoing
            .writeHead(answer.statusCode, {
              'content-type': String(answer.headers['content-type'] ?? 'application/json'),
            })
            .end(text);
        },
        () => outgoing.writeHead(502).end(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    firstBytes,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** One JSON endpoint and a valid body for it. */
const endpoints: Array<[path: string, body: Record<string, unknown>]> = [
  ['/v1/chat/completions', { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }],
  ['/v1/completions', { model: 'gpt-3.5-turbo-instruct', prompt: 'hi' }],
  ['/v1/embeddings', { model: 'text-embedding-3-small', input: 'hi' }],
  ['/v1/images/generations', { model: 'dall-e-2', prompt: 'a cat', n: 1, size: '256x256' }],
  ['/v1/responses', { model: 'gpt-4o', input: 'hi' }],
  ['/v1/messages', { model: 'gpt-4o', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }],
];

describe('a JSON body is forwarded as it was validated', () => {
  let simulator: OpenAiSimulator;
  let proxy: Awaited<ReturnType<typeof startStrictProxy>>;
  let gateway: TestGateway;
  let apiKey: string;

  beforeAll(async () => {
    simulator = await startOpenAiSimulator({ apiKey: upstreamSecret });
    proxy = await startStrictProxy(simulator);
    gateway = await startTestGateway();
    await gateway.createChannel({
      baseUrl: proxy.url,
      secret: upstreamSecret,
      models: ['gpt-4o', 'gpt-3.5-turbo-instruct', 'text-embedding-3-small', 'dall-e-2'],
    });
    apiKey = (await gateway.createKey()).secret;
  });

  afterAll(async () => {
    await gateway?.close();
    await proxy?.close();
    await simulator?.close();
  });

  it.each(endpoints)(
    'strips a leading byte-order mark before forwarding %s (the vendor gets no BOM; the client gets 200)',
    async (path, body) => {
      const sentBefore = proxy.firstBytes.length;
      const answer = await sendRawRequest(gateway, {
        path,
        apiKey,
        headers: { 'content-type': 'application/json' },
        body: Buffer.concat([byteOrderMark, Buffer.from(JSON.stringify(body))]),
      });
      expect(answer.status, answer.text).toBe(200);
      const forwarded = proxy.firstBytes.slice(sentBefore);
      expect(forwarded.length).toBeGreaterThan(0);
      for (const bytes of forwarded) expect(bytes.equals(byteOrderMark)).toBe(false);
    },
  );

  it('forwards a body without a BOM exactly as sent', async () => {
    const sentBefore = proxy.firstBytes.length;
    const answer = await sendRawRequest(gateway, {
      path: '/v1/embeddings',
      apiKey,
      headers: { 'content-type': 'application/json' },
      body: '{"model":"text-embedding-3-small","input":"hi"}',
    });
    expect(answer.status).toBe(200);
    expect(proxy.firstBytes.slice(sentBefore).map((bytes) => bytes.toString('latin1'))).toEqual(['{"m']);
  });
});
