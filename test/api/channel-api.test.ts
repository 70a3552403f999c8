// Channels over HTTP for administrators: CRUD with a write-only secret, routing changes at once, audit entries,
// and the test endpoint against the OpenAI simulator and a vendor whose error would leak its key and address.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRecord } from '../../src/storage/store-records.js';
import {
  createUnitPrice,
  startBillingTestGateway,
  type BillingTestGateway,
} from '../billing/start-billing-test-gateway.js';

const model = 'channel-api-model';
const password = 'correct horse battery staple';
const vendorSecret = 'sk-channel-api-secret-0123456789-WXYZ';
let gateway: BillingTestGateway;
let leakyVendor: Server;
let leakyVendorUrl: string;

beforeAll(async () => {
  // The model a channel made through the API serves is priced too: an unpriced model is refused.
  gateway = await startBillingTestGateway({
    models: [model],
    prices: [createUnitPrice(model), createUnitPrice('api-made-model')],
  });
  // A vendor that refuses every request with a message naming the key it got and its own address.
  leakyVendor = createServer((incoming, outgoing) => {
    incoming.resume();
    incoming.on('end', () => {
      const key = String(incoming.headers.authorization ?? '').replace('Bearer ', '');
      outgoing.writeHead(401, { 'content-type': 'application/json' });
      outgoing.end(
        JSON.stringify({
          error: {
            message: `Incorrect API key provided: ${key}. See ${leakyVendorUrl}/keys for help.`,
            code: 'invalid_api_key',
          },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => leakyVendor.listen(0, '127.0.0.1', resolve));
  leakyVendorUrl = `http://127.0.0.1:${(leakyVendor.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  await gateway?.close();
  await new Promise((resolve) => leakyVendor?.close(resolve));
});

async function callApi(
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  token: string,
  body?: unknown,
): Promise<{ status: number; body: any; text: string }> {
  const response = await request(`${gateway.url}/api${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.body.text();
  return { status: response.statusCode, body: text ? JSON.parse(text) : undefined, text };
}

async function signIn(user: UserRecord): Promise<string> {
  const response = await request(`${gateway.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: user.email, password }),
  });
  return ((await response.body.json()) as { token: string }).token;
}

async function signInAdmin(): Promise<{ admin: UserRecord; token: string }> {
  const admin = await gateway.createUser('admin', password);
  return { admin, token: await signIn(admin) };
}

describe('/api/channels', () => {
  it('creates, lists, edits, disables, enables and deletes channels without ever returning the secret', async () => {
    const { admin, token } = await signInAdmin();
    const created = await callApi('POST', '/channels', token, {
      name: 'api-made',
      baseUrl: `${gateway.simulator.url}/`,
      secret: vendorSecret,
      models: ['api-made-model'],
      modelMapping: { 'api-made-model': model },
      priority: 5,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'api-made',
      protocol: 'openai',
      preset: null,
      baseUrl: gateway.simulator.url,
      models: ['api-made-model'],
      priority: 5,
      weight: 1,
      status: 'enabled',
      secretSet: true,
      secretReadable: true,
      secretLast4: 'WXYZ',
    });
    expect(created.text).not.toContain(vendorSecret);
    expect(created.body).not.toHaveProperty('encryptedSecret');
    const channelId = created.body.id as string;

    const listed = await callApi('GET', '/channels', token);
    expect(listed.text).not.toContain(vendorSecret);
    expect(listed.text).not.toContain('encryptedSecret');
    expect(listed.body.data.map((channel: { id: string }) => channel.id)).toContain(channelId);

    // The new channel routes at once: a key whose group allows the new public model reaches the simulator through it.
    const user = await gateway.createUser('user', password);
    const key = await gateway.createKey(user);
    await gateway.topUp(user, 1_000_000);
    const answer = await gateway
      .client(key.secret)
      .chat.completions.create({ model: 'api-made-model', messages: [{ role: 'user', content: 'hi' }], max_tokens: 5 });
    expect(answer.choices[0]?.message.content).toBeTruthy();

    // Edits: a new secret (still write-only), new weight; a preset gives its protocol; a bad protocol is refused.
    const edited = await callApi('PATCH', `/channels/${channelId}`, token, { secret: 'sk-short', weight: 3 });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ weight: 3, secretSet: true, secretLast4: null });
    expect(edited.text).not.toContain('sk-short');
    expect((await callApi('PATCH', `/channels/${channelId}`, token, { protocol: 'smtp' })).body.error.param).toBe(
      'protocol',
    );
    expect((await callApi('PATCH', `/channels/${channelId}`, token, { preset: 'nobody' })).body.error.param).toBe(
      'preset',
    );
    expect(
      (await callApi('PATCH', `/channels/${channelId}`, token, { baseUrl: 'ftp://example.test' })).body.error.param,
    ).toBe('baseUrl');

    expect((await callApi('POST', `/channels/${channelId}/disable`, token)).body.status).toBe('disabled');
    await expect(
      gateway.client(key.secret).chat.completions.create({
        model: 'api-made-model',
        messages: [{ role: 'user', content: 'hi' }],
        max_tokens: 5,
      }),
    ).rejects.toMatchObject({ status: 404 });
    expect((await callApi('POST', `/channels/${channelId}/enable`, token)).body.status).toBe('enabled');

    expect(
      (await callApi('POST', '/channels', token, { name: 'api-made', preset: 'openai', secret: 'x', models: ['m'] }))
        .body.error.param,
    ).toBe('name');
    const fromPreset = await callApi('POST', '/channels', token, {
      name: 'from-preset',
      preset: 'anthropic',
      secret: 'sk-ant-secret',
      models: ['claude-x'],
      status: 'disabled',
    });
    expect(fromPreset.body).toMatchObject({
      protocol: 'anthropic',
      preset: 'anthropic',
      baseUrl: 'https://api.anthropic.com/v1',
      status: 'disabled',
    });
    expect(
      (await callApi('POST', '/channels', token, { name: 'no-url', secret: 'x', models: ['m'] })).body.error.param,
    ).toBe('baseUrl');

    expect((await callApi('DELETE', `/channels/${fromPreset.body.id}`, token)).body).toEqual({
      id: fromPreset.body.id,
      deleted: true,
    });
    expect((await callApi('GET', `/channels/${fromPreset.body.id}`, token)).status).toBe(404);

    const audit = await callApi('GET', '/admin/audit-log?limit=50', token);
    expect(audit.text).not.toContain(vendorSecret);
    expect(audit.text).not.toContain('sk-short');
    const mine = (
      audit.body.data as Array<{
        action: string;
        actorUserId: string;
        targetId: string;
        details: Record<string, unknown>;
      }>
    ).filter((entry) => entry.actorUserId === admin.id);
    expect(mine.map((entry) => entry.action).reverse()).toEqual([
      'channel.create',
      'channel.update',
      'channel.disable',
      'channel.enable',
      'channel.create',
      'channel.delete',
    ]);
    expect(mine.find((entry) => entry.action === 'channel.update')?.details).toEqual({
      weight: 3,
      secretChanged: true,
    });
  });

  it('is for administrators only', async () => {
    const user = await gateway.createUser('user', password);
    const token = await signIn(user);
    expect((await callApi('GET', '/channels', token)).status).toBe(403);
    expect(
      (await callApi('POST', '/channels', token, { name: 'x', preset: 'openai', secret: 'x', models: ['m'] })).status,
    ).toBe(403);
    const someChannel = (await gateway.running.store.listChannels())[0]!;
    expect((await callApi('POST', `/channels/${someChannel.id}/test`, token, {})).status).toBe(403);
    expect((await callApi('DELETE', `/channels/${someChannel.id}`, token)).status).toBe(403);
  });

  it('tests a channel with one tiny request, not billed and not logged as usage', async () => {
    const { token } = await signInAdmin();
    const created = await callApi('POST', '/channels', token, {
      name: 'probe-ok',
      baseUrl: gateway.simulator.url,
      secret: vendorSecret,
      models: ['probe-public'],
      modelMapping: { 'probe-public': model },
    });
    await gateway.running.billing.writer.flush();
    const logsBefore = (await callApi('GET', '/usage/logs?limit=500', token)).body.data.length;
    gateway.simulator.reset();

    const probe = await callApi('POST', `/channels/${created.body.id}/test`, token, {});
    expect(probe.status).toBe(200);
    expect(probe.body).toMatchObject({ ok: true, status: 200, model: 'probe-public' });
    expect(probe.body.latencyMs).toBeGreaterThanOrEqual(0);
    expect(probe.body).not.toHaveProperty('error');
    expect(gateway.simulator.requests).toHaveLength(1);
    expect(gateway.simulator.requests[0]).toMatchObject({
      path: '/v1/chat/completions',
      body: { model, max_tokens: 1 },
    });
    expect(gateway.simulator.requests[0]?.headers.authorization).toBe(`Bearer ${vendorSecret}`);

    // A vendor error for a named model is reported with its status.
    const refused = await callApi('POST', `/channels/${created.body.id}/test`, token, { model: 'sim-error-400' });
    expect(refused.body).toMatchObject({ ok: false, status: 400, model: 'sim-error-400' });
    expect(refused.body.error).toEqual(expect.any(String));

    await gateway.running.billing.settlementsQueued();
    await gateway.running.billing.writer.flush();
    expect((await callApi('GET', '/usage/logs?limit=500', token)).body.data).toHaveLength(logsBefore);
  });

  it("records a test's outcome on the channel's breaker, and tests a channel whose breaker is open (a success closes it)", async () => {
    const { token } = await signInAdmin();
    const created = await callApi('POST', '/channels', token, {
      name: 'probe-breaker',
      baseUrl: gateway.simulator.url,
      secret: vendorSecret,
      models: ['probe-breaker-public'],
      modelMapping: { 'probe-breaker-public': 'sim-error-503-retry-after-600' },
    });
    const breakerState = async () =>
      (
        (await callApi('GET', `/channels/${created.body.id}`, token)).body.health as Array<{
          model: string;
          state: string;
        }>
      ).find((entry) => entry.model === 'probe-breaker-public')?.state;

    const failed = await callApi('POST', `/channels/${created.body.id}/test`, token, {});
    expect(failed.body).toMatchObject({ ok: false, status: 503 });
    // A 503 with Retry-After opens the breaker at once, as a forwarded request's would.
    expect(await breakerState()).toBe('open');

    await callApi('PATCH', `/channels/${created.body.id}`, token, { modelMapping: { 'probe-breaker-public': model } });
    gateway.simulator.reset();
    const fixed = await callApi('POST', `/channels/${created.body.id}/test`, token, {});
    expect(fixed.body).toMatchObject({ ok: true, status: 200 });
    expect(gateway.simulator.requests).toHaveLength(1);
    expect(await breakerState()).toBe('closed');
  });

  it('reports a failing vendor with its secret and address removed, and an unreachable one by error code', async () => {
    const { token } = await signInAdmin();
    const leaky = await callApi('POST', '/channels', token, {
      name: 'probe-leaky',
      baseUrl: leakyVendorUrl,
      secret: vendorSecret,
      models: ['leaky-model'],
    });
    const probe = await callApi('POST', `/channels/${leaky.body.id}/test`, token, {});
    expect(probe.body).toMatchObject({ ok: false, status: 401 });
    expect(probe.body.error).toContain('Incorrect API key provided');
    expect(probe.text).not.toContain(vendorSecret);
    expect(probe.text).not.toContain(new URL(leakyVendorUrl).host);
    expect(probe.text).not.toContain('127.0.0.1');

    const closedPort = await new Promise<number>((resolve) => {
      const server = createServer();
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address() as AddressInfo;
        server.close(() => resolve(port));
      });
    });
    const unreachable = await callApi('POST', '/channels', token, {
      name: 'probe-unreachable',
      baseUrl: `http://127.0.0.1:${closedPort}/v1`,
      secret: vendorSecret,
      models: ['gone-model'],
    });
    const gone = await callApi('POST', `/channels/${unreachable.body.id}/test`, token, {});
    expect(gone.body).toMatchObject({ ok: false, status: null });
    expect(gone.body.error).toContain('ECONNREFUSED');
    expect(gone.text).not.toContain(String(closedPort));
  });
});
