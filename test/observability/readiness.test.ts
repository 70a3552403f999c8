// /readyz as a load balancer reads it: ready with its stores up and its routing table loaded; 503 with the reason
// while a store is down, before the routing table is loaded, and from the moment a graceful shutdown begins, while
// the node still serves (GATEWAY_SHUTDOWN_READINESS_DELAY_MS).
import Fastify from 'fastify';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { StoreReadinessProbe } from '../../src/observability/store-readiness-probe.js';
import { answerReadiness, type NodeReadiness } from '../../src/server/answer-readiness.js';
import { startTestGateway } from '../helpers/start-test-gateway.js';

/** A bare app whose /readyz answers from `probe` and `node`. */
async function readinessApp(probe: StoreReadinessProbe | undefined, node: NodeReadiness) {
  const app = Fastify();
  app.get('/readyz', async (_request, reply) => answerReadiness(reply, probe, node));
  await app.ready();
  return app;
}

describe('/readyz', () => {
  it('is ready on a started gateway: stores up, routing table loaded', async () => {
    const gateway = await startTestGateway();
    try {
      const response = await request(`${gateway.url}/readyz`);
      expect(response.statusCode).toBe(200);
      expect(await response.body.json()).toEqual({ status: 'ready', routing: 'loaded', database: 'up' });
    } finally {
      await gateway.close();
    }
  });

  it('answers 503 naming a store that does not answer', async () => {
    const probe = new StoreReadinessProbe({
      checks: { database: () => Promise.resolve(), redis: () => Promise.reject(new Error('connection refused')) },
    });
    const app = await readinessApp(probe, { shuttingDown: false, routingLoaded: true });
    const response = await app.inject({ url: '/readyz' });
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('1');
    expect(response.json()).toMatchObject({
      status: 'unavailable',
      routing: 'loaded',
      database: 'up',
      redis: 'down',
      error: { code: 'service_unavailable', message: expect.stringContaining('redis') },
    });
  });

  it('answers 503 until the routing table is loaded', async () => {
    const probe = new StoreReadinessProbe({ checks: { database: () => Promise.resolve() } });
    const app = await readinessApp(probe, { shuttingDown: false, routingLoaded: false });
    const response = await app.inject({ url: '/readyz' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({
      status: 'unavailable',
      routing: 'missing',
      database: 'up',
      error: { code: 'service_unavailable', message: expect.stringContaining('routing table') },
    });
  });

  it('answers 503 from the start of a graceful shutdown while the node still serves', async () => {
    const gateway = await startTestGateway({ config: { shutdownReadinessDelayMs: 1_500 } });
    const before = await request(`${gateway.url}/readyz`);
    expect(before.statusCode).toBe(200);
    await before.body.dump();
    const closing = gateway.close();
    try {
      const response = await request(`${gateway.url}/readyz`);
      expect(response.statusCode).toBe(503);
      expect(response.headers.connection).toBe('close');
      expect(await response.body.json()).toMatchObject({
        status: 'shutting_down',
        routing: 'loaded',
        error: { code: 'service_unavailable' },
      });
      // Everything else is still served during the readiness delay.
      const health = await request(`${gateway.url}/healthz`);
      expect(health.statusCode).toBe(200);
      await health.body.dump();
    } finally {
      await closing;
    }
  });
});
