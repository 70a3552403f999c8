// The console's usage views over HTTP: a /v1 request's x-request-id finds its log, CSV export under the same
// filters (capped), the hourly view from the hourly rollups, and each key's last use.
import { parse } from 'csv-parse/sync';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRecord } from '../../src/storage/store-records.js';
import {
  createUnitPrice,
  startBillingTestGateway,
  type BillingTestGateway,
} from '../billing/start-billing-test-gateway.js';

const model = 'usage-view-model';
const otherModel = 'usage-view-other';
// The simulator answers this model with a 400, which the gateway passes on and logs.
const refusedModel = 'sim-error-400';
const password = 'correct horse battery staple';
const exportCap = 3;
let gateway: BillingTestGateway;

beforeAll(async () => {
  gateway = await startBillingTestGateway({
    models: [model, otherModel, refusedModel],
    prices: [createUnitPrice(model), createUnitPrice(otherModel), createUnitPrice(refusedModel)],
    billing: { usageExportMaxRows: exportCap },
  });
});

afterAll(async () => {
  await gateway?.close();
});

async function callApi(
  path: string,
  token: string,
): Promise<{ status: number; text: string; headers: Record<string, string | string[] | undefined> }> {
  const response = await request(`${gateway.url}/api${path}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.statusCode, text: await response.body.text(), headers: response.headers };
}

async function callJson(path: string, token: string): Promise<any> {
  const response = await callApi(path, token);
  expect(response.status, response.text).toBe(200);
  return JSON.parse(response.text);
}

async function signIn(user: UserRecord): Promise<string> {
  const response = await request(`${gateway.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: user.email, password }),
  });
  return ((await response.body.json()) as { token: string }).token;
}

/** A signed-in user with a key and money. */
async function createSpender(): Promise<{ user: UserRecord; token: string; secret: string; keyId: string }> {
  const user = await gateway.createUser('user', password);
  const key = await gateway.createKey(user);
  await gateway.topUp(user, 10_000_000);
  return { user, token: await signIn(user), secret: key.secret, keyId: key.apiKeyId };
}

async function flush(): Promise<void> {
  await gateway.running.billing.settlementsQueued();
  await gateway.running.billing.writer.flush();
}

describe('usage views', () => {
  it('stores the x-request-id a client received and finds the request by it', async () => {
    const spender = await createSpender();
    const client = gateway.client(spender.secret);
    const first = await client.chat.completions
      .create({ model, messages: [{ role: 'user', content: 'one' }], max_tokens: 5 })
      .withResponse();
    await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'two' }], max_tokens: 5 });
    const requestId = first.response.headers.get('x-request-id');
    expect(requestId).toMatch(/^req_/);
    await flush();

    const found = await callJson(`/usage/logs?requestId=${requestId}`, spender.token);
    expect(found.data).toHaveLength(1);
    expect(found.data[0]).toMatchObject({ requestId, model, apiKeyId: spender.keyId, status: 200 });
    // Another user's request id finds nothing for someone else.
    const stranger = await createSpender();
    expect((await callJson(`/usage/logs?requestId=${requestId}`, stranger.token)).data).toEqual([]);
  });

  it('filters by endpoint and status class, and exports the same rows as CSV, capped', async () => {
    const spender = await createSpender();
    const client = gateway.client(spender.secret);
    for (const content of ['a', 'b', 'c', 'd'])
      await client.chat.completions.create({ model, messages: [{ role: 'user', content }], max_tokens: 5 });
    await client.embeddings.create({ model: otherModel, input: 'e' });
    await expect(
      client.chat.completions.create({
        model: refusedModel,
        messages: [{ role: 'user', content: 'x' }],
        max_tokens: 5,
      }),
    ).rejects.toMatchObject({ status: 400 });
    await flush();

    const ok = await callJson('/usage/logs?endpoint=chat.completions&statusClass=2xx', spender.token);
    expect(ok.data).toHaveLength(4);
    expect(
      ok.data.every(
        (log: { endpoint: string; status: number }) => log.endpoint === 'chat.completions' && log.status === 200,
      ),
    ).toBe(true);
    const refused = await callJson('/usage/logs?statusClass=4xx', spender.token);
    expect(refused.data).toEqual([expect.objectContaining({ model: refusedModel, status: 400 })]);
    expect((await callJson('/usage/logs?endpoint=embeddings', spender.token)).data).toEqual([
      expect.objectContaining({ model: otherModel, endpoint: 'embeddings' }),
    ]);
    expect((await callApi('/usage/logs?statusClass=7xx', spender.token)).status).toBe(400);

    const exported = await callApi('/usage/logs.csv?endpoint=chat.completions&statusClass=2xx', spender.token);
    expect(exported.status).toBe(200);
    expect(exported.headers['content-type']).toMatch(/^text\/csv/);
    expect(exported.headers['content-disposition']).toBe('attachment; filename="usage-logs.csv"');
    expect(exported.headers['x-export-row-limit']).toBe(String(exportCap));
    const rows = parse(exported.text, { columns: true }) as Array<Record<string, string>>;
    // Four rows match; the export stops at the cap, newest first, exactly the JSON rows.
    expect(rows).toHaveLength(exportCap);
    expect(rows.map((row) => row.id)).toEqual(ok.data.slice(0, exportCap).map((log: { id: string }) => log.id));
    const [firstRow] = rows;
    const firstLog = ok.data[0];
    expect(firstRow).toMatchObject({
      requestId: firstLog.requestId,
      model,
      cost: String(firstLog.cost),
      status: '200',
      streamed: 'false',
      channelId: firstLog.channelId,
    });
    // ?format=csv is the same export.
    const viaFormat = await callApi('/usage/logs?format=csv&endpoint=chat.completions&statusClass=2xx', spender.token);
    expect(viaFormat.text).toBe(exported.text);
    // A stranger's export holds only the header.
    const stranger = await createSpender();
    expect((await callApi('/usage/logs.csv', stranger.token)).text.trim().split('\n')).toHaveLength(1);
  });

  it("answers the last 24 hours per hour from the hourly rollups, matching the logs, and sets the key's last use", async () => {
    const spender = await createSpender();
    expect((await callJson('/keys', spender.token)).data[0].lastUsedAt).toBeNull();
    const client = gateway.client(spender.secret);
    await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'one' }], max_tokens: 5 });
    await client.chat.completions.create({
      model: otherModel,
      messages: [{ role: 'user', content: 'two' }],
      max_tokens: 5,
    });
    await flush();

    const logs = (await callJson('/usage/logs', spender.token)).data as Array<{
      createdAt: number;
      cost: number;
      model: string;
      promptTokens: number;
      completionTokens: number;
    }>;
    const summary = await callJson('/usage/summary?granularity=hour', spender.token);
    expect(summary.granularity).toBe('hour');
    expect(summary.hours).toHaveLength(24);
    expect(summary.to - summary.from).toBe(24 * 3_600_000);
    expect(summary.totals).toMatchObject({
      requestCount: logs.length,
      cost: logs.reduce((sum, log) => sum + log.cost, 0),
      promptTokens: logs.reduce((sum, log) => sum + log.promptTokens, 0),
      completionTokens: logs.reduce((sum, log) => sum + log.completionTokens, 0),
    });
    const perModel = new Map<string, number>();
    for (const row of summary.data as Array<{ model: string; cost: number; apiKeyId: string }>) {
      expect(row.apiKeyId).toBe(spender.keyId);
      perModel.set(row.model, (perModel.get(row.model) ?? 0) + row.cost);
    }
    for (const log of logs)
      expect(perModel.get(log.model)).toBe(
        logs.filter((other) => other.model === log.model).reduce((sum, other) => sum + other.cost, 0),
      );
    const hourOfLogs = Math.floor(logs[0]!.createdAt / 3_600_000) * 3_600_000;
    expect(summary.hours.find((hour: { hour: number }) => hour.hour === hourOfLogs)).toMatchObject({
      requestCount: logs.length,
    });
    expect((await callApi('/usage/summary?granularity=hour&from=0&to=99999999999', spender.token)).status).toBe(400);

    const [key] = (await callJson('/keys', spender.token)).data;
    expect(key.lastUsedAt).toBe(Math.max(...logs.map((log) => log.createdAt)));
  });
});
