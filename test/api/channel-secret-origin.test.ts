// A channel's secret is bound to its base URL's origin: an admin who moves a channel to another origin must give the
// secret again, so the channel test (and live traffic) never carries the stored secret to a host it was not given for.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createUnitPrice,
  startBillingTestGateway,
  type BillingTestGateway,
} from '../billing/start-billing-test-gateway.js';

const model = 'secret-origin-model';
const password = 'correct horse battery staple';
let gateway: BillingTestGateway;
let adminToken: string;

/** A vendor that records the Authorization header of every request and refuses it. */
interface RecordingVendor {
  server: Server;
  url: string;
  authorizations: string[];
}
let trusted: RecordingVendor;
let other: RecordingVendor;

async function startRecordingVendor(): Promise<RecordingVendor> {
  const authorizations: string[] = [];
  const server = createServer((incoming, outgoing) => {
    authorizations.push(String(incoming.headers.authorization ?? ''));
    incoming.resume();
    incoming.on('end', () => {
      outgoing.writeHead(401, { 'content-type': 'application/json' });
      outgoing.end(JSON.stringify({ error: { message: 'no', code: 'invalid_api_key' } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, authorizations };
}

beforeAll(async () => {
  gateway = await startBillingTestGateway({ models: [model], prices: [createUnitPrice(model)] });
  trusted = await startRecordingVendor();
  other = await startRecordingVendor();
  const admin = await gateway.createUser('admin', password);
  const login = await request(`${gateway.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: admin.email, password }),
  });
  adminToken = ((await login.body.json()) as { token: string }).token;
});

afterAll(async () => {
  await gateway?.close();
  for (const vendor of [trusted, other]) await new Promise((resolve) => vendor?.server.close(resolve));
});

async function callApi(method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown) {
  const response = await request(`${gateway.url}/api${path}`, {
    method,
    headers: {
      authorization: `Bearer ${adminToken}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.body.text();
  return { status: response.statusCode, body: text ? JSON.parse(text) : undefined };
}

describe('PATCH /api/channels/:id baseUrl', () => {
  it('refuses another origin without the secret, so /test keeps sending it only where it was given', async () => {
    const created = await callApi('POST', '/channels', {
      name: 'origin-bound',
      baseUrl: trusted.url,
      secret: 'sk-trusted-origin-secret',
      models: [model],
    });
    expect(created.status).toBe(201);
    const channelId = created.body.id as string;

    const moved = await callApi('PATCH', `/channels/${channelId}`, { baseUrl: other.url, weight: 2 });
    expect(moved.status).toBe(400);
    expect(moved.body.error.param).toBe('secret');
    expect(moved.body.error.message).toMatch(/needs the secret again/);
    // Nothing of the refused change was stored.
    expect((await callApi('GET', `/channels/${channelId}`)).body).toMatchObject({ baseUrl: trusted.url, weight: 1 });

    await callApi('POST', `/channels/${channelId}/test`, {});
    expect(other.authorizations).toEqual([]);
    expect(new Set(trusted.authorizations)).toEqual(new Set(['Bearer sk-trusted-origin-secret']));

    // Another path on the same origin keeps the secret.
    const samePlace = await callApi('PATCH', `/channels/${channelId}`, { baseUrl: `${trusted.url}/../v2` });
    expect(samePlace.status).toBe(200);
    expect(samePlace.body.baseUrl).toBe(trusted.url.replace(/\/v1$/, '/v2'));

    // With the secret given again the move is made, and the test sends the new secret to the new origin.
    const movedWithSecret = await callApi('PATCH', `/channels/${channelId}`, {
      baseUrl: other.url,
      secret: 'sk-other-origin-secret',
    });
    expect(movedWithSecret.status).toBe(200);
    expect(movedWithSecret.body.baseUrl).toBe(other.url);
    await callApi('POST', `/channels/${channelId}/test`, {});
    expect(new Set(other.authorizations)).toEqual(new Set(['Bearer sk-other-origin-secret']));
    expect(new Set(trusted.authorizations)).toEqual(new Set(['Bearer sk-trusted-origin-secret']));
  });
});
