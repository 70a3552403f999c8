// The per-address caps (in flight, connections) count the client behind a trusted proxy, and only then.
import Fastify, { type FastifyInstance } from 'fastify';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { readTrustProxySetting } from '../config/trust-proxy-setting.js';
import { GatewayError } from '../core/gateway-error.js';
import { createProxyTrust } from './create-proxy-trust.js';
import { limitConnectionsPerAddress } from './limit-connections-per-address.js';
import { limitInFlightPerAddress } from './limit-in-flight-per-address.js';

let app: FastifyInstance | undefined;
const openSockets: net.Socket[] = [];

afterEach(async () => {
  for (const socket of openSockets.splice(0)) socket.destroy();
  await app?.close();
  app = undefined;
});

/** An app on 127.0.0.1 with `/ip` (the resolved client address) and `/hold` (answers once released). */
async function startApp(trustProxy: string | undefined, limits: { inFlight?: number; connections?: number }) {
  const trust = createProxyTrust(readTrustProxySetting({ GATEWAY_TRUST_PROXY: trustProxy }));
  app = Fastify({ trustProxy: trustProxy === undefined ? false : trust });
  limitConnectionsPerAddress(app, limits.connections ?? 0, trust);
  limitInFlightPerAddress(app, limits.inFlight ?? 0);
  app.setErrorHandler((error, _request, reply) =>
    reply
      .code(error instanceof GatewayError ? error.status : 500)
      .send({ code: error instanceof GatewayError ? error.code : 'internal' }),
  );
  const released: Array<() => void> = [];
  app.get('/ip', async (request) => ({ ip: request.ip }));
  app.get('/hold', async () => {
    await new Promise<void>((resolve) => released.push(resolve));
    return { held: true };
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return { url, release: () => released.splice(0).forEach((resolve) => resolve()), held: () => released.length };
}

async function get(url: string, forwardedFor?: string): Promise<{ status: number; body: unknown }> {
  const response = await request(url, { headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {} });
  return { status: response.statusCode, body: await response.body.json() };
}

describe('the client address behind a proxy', () => {
  it('is the socket address without GATEWAY_TRUST_PROXY, whatever X-Forwarded-For says', async () => {
    const { url } = await startApp(undefined, {});
    expect((await get(`${url}/ip`, '203.0.113.1')).body).toEqual({ ip: '127.0.0.1' });
  });

  it('is the nearest untrusted address of X-Forwarded-For from a trusted proxy', async () => {
    const { url } = await startApp('127.0.0.0/8, 10.0.0.0/8', {});
    // The client sent its own (forged) first entry; the trusted hops stop at the first untrusted address.
    expect((await get(`${url}/ip`, '198.51.100.9, 203.0.113.1, 10.1.2.3')).body).toEqual({ ip: '203.0.113.1' });
  });

  it('with a hop count, is the entry that many hops back', async () => {
    const { url } = await startApp('1', {});
    expect((await get(`${url}/ip`, '198.51.100.9, 203.0.113.1')).body).toEqual({ ip: '203.0.113.1' });
  });

  it('is the socket address when the peer is not a trusted proxy', async () => {
    const { url } = await startApp('10.0.0.0/8', {});
    expect((await get(`${url}/ip`, '203.0.113.1')).body).toEqual({ ip: '127.0.0.1' });
  });
});

describe('the in-flight cap per address', () => {
  it('behind a trusted proxy, limits two clients with different X-Forwarded-For separately', async () => {
    const { url, release, held } = await startApp('loopback', { inFlight: 1 });
    const first = get(`${url}/hold`, '203.0.113.1');
    await expect.poll(held).toBe(1);
    const other = get(`${url}/hold`, '203.0.113.2');
    await expect.poll(held).toBe(2);
    expect((await get(`${url}/hold`, '203.0.113.1')).status).toBe(429);
    release();
    expect((await first).status).toBe(200);
    expect((await other).status).toBe(200);
  });

  it('without the setting, counts every client of the proxy as one address', async () => {
    const { url, release, held } = await startApp(undefined, { inFlight: 1 });
    const first = get(`${url}/hold`, '203.0.113.1');
    await expect.poll(held).toBe(1);
    expect((await get(`${url}/hold`, '203.0.113.2')).status).toBe(429);
    release();
    expect((await first).status).toBe(200);
  });
});

/** Opens a raw connection and sends one GET /ip on it; resolves with the status line. */
async function rawGet(url: string): Promise<string> {
  const { port } = new URL(url);
  const socket = net.connect({ host: '127.0.0.1', port: Number(port) });
  openSockets.push(socket);
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write('GET /ip HTTP/1.1\r\nHost: gateway\r\n\r\n');
  return new Promise((resolve) => socket.once('data', (chunk: Buffer) => resolve(chunk.toString().split('\r\n')[0]!)));
}

describe('the connection cap per address', () => {
  it('does not count connections from a trusted proxy, which carry many clients', async () => {
    const { url } = await startApp('loopback', { connections: 1 });
    expect(await rawGet(url)).toBe('HTTP/1.1 200 OK');
    expect(await rawGet(url)).toBe('HTTP/1.1 200 OK');
  });

  it('counts connections by the socket address otherwise', async () => {
    const { url } = await startApp('10.0.0.0/8', { connections: 1 });
    expect(await rawGet(url)).toBe('HTTP/1.1 200 OK');
    expect(await rawGet(url)).toBe('HTTP/1.1 429 Too Many Requests');
  });
});
