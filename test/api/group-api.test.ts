// Model groups over HTTP for administrators: create, rename, describe and change models, with routing changed at
// once, audit entries, and refusals for taken names, bad input, unknown groups and non-admins.
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createUnitPrice,
  startBillingTestGateway,
  type BillingTestGateway,
} from '../billing/start-billing-test-gateway.js';
import { createSessionToken } from './console-api-client.js';

const model = 'group-api-model';
let gateway: BillingTestGateway;

beforeAll(async () => {
  gateway = await startBillingTestGateway({ models: [model], prices: [createUnitPrice(model)] });
});

afterAll(async () => {
  await gateway?.close();
});

async function callApi(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH',
  path: string,
  token: string,
  body?: unknown,
): Promise<{ status: number; body: any }> {
  const response = await request(`${gateway.url}/api${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.body.text();
  return { status: response.statusCode, body: text ? JSON.parse(text) : undefined };
}

describe('/api/groups', () => {
  it('creates a group and edits its name, description and models; keys of the group route by its models at once', async () => {
    const admin = await gateway.createUser('admin');
    const token = await createSessionToken(gateway, admin.id);
    const created = await callApi('POST', '/groups', token, {
      name: 'team-a',
      description: 'the A team',
      models: [model, model],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'team-a',
      description: 'the A team',
      models: [model],
      priceRatioMillionths: 1_000_000,
    });
    const groupId = created.body.id as string;
    expect((await callApi('GET', '/groups', token)).body.data.map((group: { id: string }) => group.id)).toContain(
      groupId,
    );

    const user = await gateway.createUser('user');
    expect((await callApi('PUT', `/users/${user.id}/groups`, token, { groups: ['team-a'] })).status).toBe(200);
    const key = await callApi('POST', '/keys', token, { group: groupId, userId: user.id });
    expect(key.status).toBe(201);
    await gateway.topUp(user, 1_000_000);
    const answer = await gateway
      .client(key.body.key)
      .chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }], max_tokens: 5 });
    expect(answer.choices[0]?.message.content).toBeTruthy();

    const edited = await callApi('PATCH', `/groups/${groupId}`, token, {
      name: 'team-b',
      description: '',
      models: ['another-model'],
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ id: groupId, name: 'team-b', description: '', models: ['another-model'] });
    await expect(
      gateway
        .client(key.body.key)
        .chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }], max_tokens: 5 }),
    ).rejects.toMatchObject({ status: expect.any(Number) });

    const renamedOnly = await callApi('PATCH', `/groups/${groupId}`, token, { description: 'kept models' });
    expect(renamedOnly.body).toMatchObject({ name: 'team-b', description: 'kept models', models: ['another-model'] });

    const audit = await callApi('GET', `/admin/audit-log?targetId=${groupId}`, token);
    expect(audit.body.data.map((entry: { action: string }) => entry.action)).toEqual([
      'group.update',
      'group.update',
      'group.create',
    ]);
  });

  it('refuses a taken name, empty models, an unknown group and a non-admin', async () => {
    const admin = await gateway.createUser('admin');
    const token = await createSessionToken(gateway, admin.id);
    const first = await callApi('POST', '/groups', token, { name: 'taken', models: ['*'] });
    expect(first.status).toBe(201);
    const second = await callApi('POST', '/groups', token, { name: 'taken', models: ['*'] });
    expect(second.status).toBe(400);
    expect(second.body.error).toMatchObject({ param: 'name', message: 'A group named taken exists already.' });
    const other = await callApi('POST', '/groups', token, { name: 'other', models: ['*'] });
    expect((await callApi('PATCH', `/groups/${other.body.id}`, token, { name: 'taken' })).status).toBe(400);
    expect((await callApi('POST', '/groups', token, { name: 'no-models', models: [] })).status).toBe(400);
    expect((await callApi('PATCH', '/groups/grp_missing', token, { description: 'x' })).status).toBe(404);

    const user = await gateway.createUser('user');
    const userToken = await createSessionToken(gateway, user.id);
    expect((await callApi('POST', '/groups', userToken, { name: 'mine', models: ['*'] })).status).toBe(403);
    expect((await callApi('PATCH', `/groups/${other.body.id}`, userToken, { name: 'mine' })).status).toBe(403);
    expect((await callApi('GET', '/channel-presets', userToken)).status).toBe(403);
  });

  it('lists the channel presets for administrators', async () => {
    const admin = await gateway.createUser('admin');
    const presets = await callApi('GET', '/channel-presets', await createSessionToken(gateway, admin.id));
    expect(presets.body.data).toContainEqual({
      name: 'openai',
      protocol: 'openai',
      baseUrl: 'https://api.openai.com/v1',
      ownedBy: 'openai',
    });
    expect(presets.body.data).toContainEqual({
      name: 'anthropic',
      protocol: 'anthropic',
      baseUrl: 'https://api.anthropic.com/v1',
      ownedBy: 'anthropic',
    });
  });
});
