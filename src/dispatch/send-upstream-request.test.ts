import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, errors } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendUpstreamRequest } from './send-upstream-request.js';

/** What the loopback vendor received. */
interface Received {
  method: string | undefined;
  url: string | undefined;
  headers: http.IncomingHttpHeaders;
  body: string;
}

describe('sendUpstreamRequest', () => {
  const received: Received[] = [];
  const dispatcher = new Agent();
  let server: http.Server;
  let origin: string;

  beforeAll(async () => {
    server = http.createServer((request, response) => {
      let body = '';
      request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        received.push({ method: request.method, url: request.url, headers: request.headers, body });
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await dispatcher.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const send = (url: string, body: string | undefined, method?: 'GET' | 'POST') =>
    sendUpstreamRequest(
      { url, headers: { authorization: 'Bearer vendor-key' }, body, method },
      { dispatcher, signal: undefined, headersTimeoutMs: 5_000, bodyTimeoutMs: 5_000 },
    );

  it('sends the path with its query, the body and the vendor headers, and the same URL again the same way', async () => {
    received.length = 0;
    const url = `${origin}/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse`;
    for (const text of ['{"n":1}', '{"n":2}']) {
      const response = await send(url, text);
      expect(await response.body.json()).toEqual({ ok: true });
    }
    expect(received.map(({ method, url: path, body }) => ({ method, path, body }))).toEqual([
      { method: 'POST', path: '/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse', body: '{"n":1}' },
      { method: 'POST', path: '/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse', body: '{"n":2}' },
    ]);
    expect(received[0]!.headers).toMatchObject({
      authorization: 'Bearer vendor-key',
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    });
  });

  it('keeps URLs that differ only in their query apart', async () => {
    received.length = 0;
    await (await send(`${origin}/v1/videos/1?variant=a`, undefined, 'GET')).body.dump();
    await (await send(`${origin}/v1/videos/1?variant=b`, undefined, 'GET')).body.dump();
    expect(received.map((request) => request.url)).toEqual(['/v1/videos/1?variant=a', '/v1/videos/1?variant=b']);
  });

  it('refuses a URL that is not http or https, as undici does', () => {
    expect(() => send('ftp://127.0.0.1/v1/chat/completions', '{}')).toThrow(errors.InvalidArgumentError);
  });
});
