// Every /v1 and /api answer tells caches not to keep it (keys, secrets, balances and model output are in them) and
// browsers not to sniff its type: JSON answers, errors and streams alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postRawJson, sendRawRequest, type RawResponse } from '../helpers/start-test-gateway.js';
import { startSimulatedGateway, type SimulatedGateway } from '../helpers/start-simulated-gateway.js';

let setup: SimulatedGateway;

beforeAll(async () => {
  setup = await startSimulatedGateway({ channelSecret: 'sk-upstream-headers', models: ['gpt-4o'] });
});

afterAll(async () => {
  await setup?.close();
});

function expectSecurityHeaders(response: RawResponse): void {
  expect(response.headers['cache-control']).toBe('no-store');
  expect(response.headers['x-content-type-options']).toBe('nosniff');
}

describe('Cache-Control: no-store and X-Content-Type-Options: nosniff', () => {
  it('are on a JSON answer, an error and the model list under /v1', async () => {
    const { gateway, clientKey } = setup;
    const answer = await postRawJson(gateway, clientKey, '/v1/chat/completions', {
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect(answer.status).toBe(200);
    expectSecurityHeaders(answer);
    expectSecurityHeaders(await sendRawRequest(gateway, { path: '/v1/models', apiKey: clientKey }));
    const refused = await sendRawRequest(gateway, { path: '/v1/models', apiKey: 'sk-not-a-key' });
    expect(refused.status).toBe(401);
    expectSecurityHeaders(refused);
  });

  it('are in the head of a stream, once each (no-store replaces the event stream no-cache)', async () => {
    const { gateway, clientKey } = setup;
    const streamed = await postRawJson(gateway, clientKey, '/v1/chat/completions', {
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'hello' }],
      stream: true,
    });
    expect(streamed.status).toBe(200);
    expect(streamed.headers['content-type']).toContain('text/event-stream');
    expectSecurityHeaders(streamed);
    expect(streamed.headers['x-request-id']).toBeTruthy();
  });

  it('are on the console API and its errors, not on the health check', async () => {
    const { gateway } = setup;
    expectSecurityHeaders(await sendRawRequest(gateway, { path: '/api/setup' }));
    const unauthenticated = await sendRawRequest(gateway, { path: '/api/me' });
    expect(unauthenticated.status).toBeGreaterThanOrEqual(400);
    expectSecurityHeaders(unauthenticated);
    expect((await sendRawRequest(gateway, { path: '/healthz' })).headers['cache-control']).toBeUndefined();
  });
});
