// The per-user in-flight cap: a user's requests beyond it get 429 with Retry-After and are counted with the other
// refusals; a slot comes back when its request ends, and other users are not held back.
import Fastify, { type FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterEach, expect, it, vi } from 'vitest';
import type { RefusedRequest } from '../billing/refused-request-counter.js';
import { GatewayError } from '../core/gateway-error.js';
import { limitInFlightPerUser } from './limit-in-flight-per-user.js';

let app: FastifyInstance | undefined;

afterEach(async () => {
  await app?.close();
  app = undefined;
});

it('refuses the third request of a user capped at two, counts the refusal, and serves again once one ends', async () => {
  const countRefusal = vi.fn<(refusal: RefusedRequest) => void>();
  app = Fastify();
  app.decorateRequest('receivedAt', 0);
  app.addHook('onRequest', async (request) => {
    const userId = String(request.headers['x-user']);
    request.principal = { userId, apiKeyId: `key-${userId}` } as typeof request.principal;
  });
  limitInFlightPerUser(app, 2, countRefusal);
  app.setErrorHandler((error, _request, reply) =>
    reply
      .code(error instanceof GatewayError ? error.status : 500)
      .headers(error instanceof GatewayError ? error.headers : {})
      .send({ code: error instanceof GatewayError ? error.code : 'internal' }),
  );
  const released: Array<() => void> = [];
  app.post('/hold', async () => {
    await new Promise<void>((resolve) => released.push(resolve));
    return { held: true };
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/hold`;
  const send = (user: string) =>
    request(url, {
      method: 'POST',
      headers: { 'x-user': user, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o' }),
    });

  const held = [send('alice'), send('alice')];
  await vi.waitFor(() => expect(released).toHaveLength(2));
  const refused = await send('alice');
  expect(refused.statusCode).toBe(429);
  expect(refused.headers['retry-after']).toBe('1');
  expect(await refused.body.json()).toEqual({ code: 'rate_limit_exceeded' });
  expect(countRefusal).toHaveBeenCalledWith(
    expect.objectContaining({ userId: 'alice', apiKeyId: 'key-alice', model: 'gpt-4o', status: 429 }),
  );
  const other = send('bob');
  await vi.waitFor(() => expect(released).toHaveLength(3));

  for (const release of released.splice(0)) release();
  for (const answer of await Promise.all([...held, other])) expect(answer.statusCode).toBe(200);
  const again = send('alice');
  await vi.waitFor(() => expect(released).toHaveLength(1));
  released[0]?.();
  expect((await again).statusCode).toBe(200);
});
