// The optional request body log (GATEWAY_REQUEST_BODY_LOG=on): a non-streamed JSON request and its answer are kept,
// cut at the size cap and marked, never a header; admins read them by x-request-id, nobody else can.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadBillingConfig } from '../../src/billing/billing-config.js';
import {
  createUnitPrice,
  startBillingTestGateway,
  type BillingTestGateway,
} from '../billing/start-billing-test-gateway.js';
import { callConsoleApi, createSessionToken } from './console-api-client.js';

const model = 'body-log-model';
const maxBytes = 1_000;
let gateway: BillingTestGateway;
let adminToken: string;
let userToken: string;
let secret: string;

beforeAll(async () => {
  gateway = await startBillingTestGateway({
    models: [model],
    prices: [createUnitPrice(model)],
    billing: { requestBodyLog: { enabled: true, maxBytes, retentionDays: 7 } },
  });
  const admin = await gateway.createUser('admin');
  adminToken = await createSessionToken(gateway, admin.id);
  const user = await gateway.createUser('user');
  userToken = await createSessionToken(gateway, user.id);
  secret = (await gateway.createKey(user)).secret;
  await gateway.topUp(user, 10_000_000);
});

afterAll(async () => {
  await gateway?.close();
});

/** The bodies the admin endpoint answers for a request id, once the body log has written them. */
async function keptBodies(requestId: string): Promise<any> {
  const log = gateway.running.billing.requestBodyLog!;
  return vi.waitFor(
    async () => {
      await log.flush();
      const answer = await callConsoleApi(gateway, 'GET', `/admin/request-bodies/${requestId}`, adminToken);
      expect(answer.status, answer.text).toBe(200);
      return answer.body;
    },
    { timeout: 5_000, interval: 50 },
  );
}

describe('the request body log', () => {
  it('is off by default, with a 64 KiB cap and 7 days of retention', () => {
    expect(loadBillingConfig({}).requestBodyLog).toEqual({ enabled: false, maxBytes: 65_536, retentionDays: 7 });
    expect(loadBillingConfig({ GATEWAY_REQUEST_BODY_LOG: 'on' }).requestBodyLog.enabled).toBe(true);
    expect(() => loadBillingConfig({ GATEWAY_REQUEST_BODY_LOG: 'maybe' })).toThrow(/on or off/);
  });

  it('keeps a non-streamed chat request and its answer under the request id, without the key', async () => {
    const body = { model, messages: [{ role: 'user' as const, content: 'hello body log' }], max_tokens: 5 };
    const { data, response } = await gateway.client(secret).chat.completions.create(body).withResponse();
    const requestId = response.headers.get('x-request-id')!;
    const kept = await keptBodies(requestId);
    expect(kept).toMatchObject({
      requestId,
      endpoint: 'chat.completions',
      status: 200,
      requestTruncated: false,
      responseTruncated: false,
    });
    expect(JSON.parse(kept.requestBody)).toEqual(body);
    expect(JSON.parse(kept.responseBody).id).toBe(data.id);
    expect(kept.requestBytes).toBe(Buffer.byteLength(kept.requestBody));
    expect(JSON.stringify(kept)).not.toContain(secret);
  });

  it('cuts a body longer than the cap at a character boundary and marks it', async () => {
    const content = 'é'.repeat(800);
    const { response } = await gateway
      .client(secret)
      .chat.completions.create({ model, messages: [{ role: 'user', content }], max_tokens: 5 })
      .withResponse();
    const kept = await keptBodies(response.headers.get('x-request-id')!);
    expect(kept.requestTruncated).toBe(true);
    expect(kept.requestBytes).toBeGreaterThan(1_600);
    expect(Buffer.byteLength(kept.requestBody)).toBeLessThanOrEqual(maxBytes);
    expect(Buffer.byteLength(kept.requestBody)).toBeGreaterThan(maxBytes - 2);
    expect(kept.requestBody).not.toContain('\uFFFD');
  });

  it('keeps nothing of a streamed request', async () => {
    const stream = await gateway
      .client(secret)
      .chat.completions.create({ model, messages: [{ role: 'user', content: 'stream me' }], stream: true })
      .withResponse();
    for await (const chunk of stream.data) expect(chunk).toBeDefined();
    const requestId = stream.response.headers.get('x-request-id')!;
    await gateway.running.billing.requestBodyLog!.flush();
    const answer = await callConsoleApi(gateway, 'GET', `/admin/request-bodies/${requestId}`, adminToken);
    expect(answer.status).toBe(404);
    expect(answer.body.error.code).toBe('not_found');
  });

  it('answers only administrators', async () => {
    const { response } = await gateway
      .client(secret)
      .chat.completions.create({ model, messages: [{ role: 'user', content: 'mine' }], max_tokens: 5 })
      .withResponse();
    const requestId = response.headers.get('x-request-id')!;
    await keptBodies(requestId);
    const asUser = await callConsoleApi(gateway, 'GET', `/admin/request-bodies/${requestId}`, userToken);
    expect(asUser.status).toBe(403);
    expect(JSON.stringify(asUser.body)).not.toContain('mine');
    const anonymous = await callConsoleApi(gateway, 'GET', `/admin/request-bodies/${requestId}`, undefined);
    expect(anonymous.status).toBe(401);
  });
});
