// The benchmark's reference proxy must be a faithful pass-through, or every ratio against it means nothing.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceProxy, type ReferenceProxy } from '../../bench/reference-proxy.js';

const streamedEvents = ['data: {"n":1}\n\n', 'data: {"n":2}\n\n', 'data: [DONE]\n\n'];
const eventGapMs = 40;

/** An upstream that echoes request bodies byte for byte and streams three events with pauses between them. */
function startUpstream(): Promise<Server> {
  const server = createServer((incoming, response) => {
    if (incoming.url === '/v1/stream') {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'x-upstream': 'yes' });
      response.flushHeaders();
      void (async () => {
        for (const event of streamedEvents) {
          await sleep(eventGapMs);
          response.write(event);
        }
        response.end();
      })();
      return;
    }
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      response.writeHead(201, {
        'content-type': incoming.headers['content-type'] ?? 'application/octet-stream',
        'x-seen-authorization': incoming.headers.authorization ?? '',
        'x-seen-path': incoming.url ?? '',
      });
      response.end(Buffer.concat(chunks));
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe('reference proxy', () => {
  let upstream: Server;
  let proxy: ReferenceProxy;

  beforeAll(async () => {
    upstream = await startUpstream();
    proxy = await startReferenceProxy({
      upstreamOrigin: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
    });
  });

  afterAll(async () => {
    await proxy.close();
    upstream.closeAllConnections();
    await new Promise((resolve) => upstream.close(resolve));
  });

  it('forwards a request body, path, headers and the answer unchanged, even at 1 MB', async () => {
    const body = Buffer.alloc(1024 * 1024);
    for (let index = 0; index < body.length; index++) body[index] = (index * 31) % 251;
    const response = await request(`${proxy.url}/v1/echo?x=1`, {
      method: 'POST',
      headers: { authorization: 'Bearer upstream-key', 'content-type': 'application/octet-stream' },
      body,
    });
    const received = Buffer.from(await response.body.arrayBuffer());
    expect(response.statusCode).toBe(201);
    expect(response.headers['x-seen-authorization']).toBe('Bearer upstream-key');
    expect(response.headers['x-seen-path']).toBe('/v1/echo?x=1');
    expect(received.equals(body)).toBe(true);
  });

  it('relays a stream event by event as it arrives, neither merged nor changed', async () => {
    const response = await request(`${proxy.url}/v1/stream`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/event-stream');
    expect(response.headers['x-upstream']).toBe('yes');
    const reads: string[] = [];
    for await (const chunk of response.body) reads.push(Buffer.from(chunk as Uint8Array).toString('utf8'));
    expect(reads.join('')).toBe(streamedEvents.join(''));
    // Each event was written alone, long after the previous one, so it must arrive alone.
    expect(reads).toEqual(streamedEvents);
  });
});
