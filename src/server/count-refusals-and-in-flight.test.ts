// The server's caps count each refusal under its reason, and every request and connection is counted under its
// route group while it lasts: what `gateway_refusals_total` and `gateway_in_flight_requests` report.
import Fastify, { type FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayError } from '../core/gateway-error.js';
import { InFlightCounts } from '../observability/in-flight-counts.js';
import { RefusalCounts } from '../observability/refusal-counts.js';
import { countInFlightByRouteGroup } from './count-in-flight-by-route-group.js';
import { limitInFlightPerAddress } from './limit-in-flight-per-address.js';
import { limitInFlightRequests } from './limit-in-flight-requests.js';
import { routeGroupOf } from './route-group-of.js';

let app: FastifyInstance | undefined;
let agent: Agent | undefined;
const jsonBody = { body: '{}', headers: { 'content-type': 'application/json' } };

/** Handlers still holding their answer; released before the app closes. */
const released: Array<() => void> = [];

/** Releases held answers, closes the client agent, then the app. */
async function stop(): Promise<void> {
  for (const resolve of released.splice(0)) resolve();
  const closingAgent = agent;
  agent = undefined;
  await closingAgent?.close();
  const closingApp = app;
  app = undefined;
  await closingApp?.close();
}

afterEach(stop);

/** An app with the caps, `/v1/chat/completions` that answers once released, and `/api/me`. */
async function startApp(limits: { inFlight: number; perAddress: number }) {
  const refusals = new RefusalCounts();
  const counts = new InFlightCounts();
  app = Fastify();
  countInFlightByRouteGroup(app, counts);
  limitInFlightPerAddress(app, limits.perAddress, refusals);
  limitInFlightRequests(app, limits.inFlight, refusals);
  app.setErrorHandler((error, _request, reply) =>
    reply.code(error instanceof GatewayError ? error.status : 500).send({ refused: true }),
  );
  const arrived: Array<() => void> = [];
  app.post('/v1/chat/completions', async () => {
    for (const notify of arrived.splice(0)) notify();
    await new Promise<void>((resolve) => released.push(resolve));
    return { answered: true };
  });
  app.get('/api/me', async () => ({ me: true }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  agent = new Agent({ connections: 4 });
  const dispatcher = agent;
  return {
    refusals,
    counts,
    url,
    /** starts a held chat and resolves once its handler runs, with the status it will answer */
    async holdChat(): Promise<{ answer: Promise<number> }> {
      const handled = new Promise<void>((resolve) => arrived.push(resolve));
      const answer = request(`${url}/v1/chat/completions`, { method: 'POST', ...jsonBody, dispatcher }).then(
        async (response) => {
          await response.body.dump();
          return response.statusCode;
        },
      );
      await handled;
      return { answer };
    },
    release: () => released.splice(0).forEach((resolve) => resolve()),
    status: async (path: string, method: 'GET' | 'POST' = 'GET') => {
      const response = await request(`${url}${path}`, { method, ...(method === 'POST' ? jsonBody : {}), dispatcher });
      await response.body.dump();
      return response.statusCode;
    },
  };
}

describe('refusal counts', () => {
  it('counts the per-address cap and the process cap, each under its reason', async () => {
    const perAddress = await startApp({ inFlight: 0, perAddress: 1 });
    const held = (await perAddress.holdChat()).answer;
    expect(await perAddress.status('/api/me')).toBe(429);
    expect(perAddress.refusals.of('per_address_cap')).toBe(1);
    perAddress.release();
    expect(await held).toBe(200);
    await stop();

    const processCap = await startApp({ inFlight: 1, perAddress: 0 });
    const first = (await processCap.holdChat()).answer;
    expect(await processCap.status('/api/me')).toBe(503);
    expect(processCap.refusals.of('in_flight_cap')).toBe(1);
    expect(processCap.refusals.of('per_address_cap')).toBe(0);
    processCap.release();
    expect(await first).toBe(200);
  });
});

describe('in-flight counts by route group', () => {
  it('counts a request under its group while it lasts, and its connection under the group of its latest request', async () => {
    const { counts, holdChat, release, status } = await startApp({ inFlight: 0, perAddress: 0 });
    const held = (await holdChat()).answer;
    expect(counts.requests.get('v1_chat_completions')).toBe(1);
    expect(counts.connections.get('v1_chat_completions')).toBe(1);
    expect(await status('/api/me')).toBe(200);
    expect(counts.requests.get('api')).toBe(0);
    release();
    expect(await held).toBe(200);
    expect(counts.requests.get('v1_chat_completions')).toBe(0);
    expect([...counts.connections.values()].reduce((sum, open) => sum + open, 0)).toBeGreaterThanOrEqual(1);
    await stop();
    // Every connection closed (a socket's 'close' comes a turn of the event loop after the server's): none is left.
    const allClosed = () => [...counts.connections.values()].every((open) => open === 0);
    for (let turn = 0; turn < 100 && !allClosed(); turn++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(Object.fromEntries(counts.connections)).toEqual({ none: 0, v1_chat_completions: 0, api: 0 });
  });

  it('names route groups from route patterns, never from client paths', () => {
    expect(routeGroupOf('/v1/chat/completions')).toBe('v1_chat_completions');
    expect(routeGroupOf('/v1/completions')).toBe('v1_completions');
    expect(routeGroupOf('/v1/messages/count_tokens')).toBe('v1_messages');
    expect(routeGroupOf('/v1/responses/:id')).toBe('v1_responses');
    expect(routeGroupOf('/v1/videos/generations/:taskId')).toBe('v1_videos');
    expect(routeGroupOf('/v1beta/models/*')).toBe('v1beta_gemini');
    expect(routeGroupOf('/api/channels/:id')).toBe('api');
    expect(routeGroupOf('/metrics')).toBe('probes');
    expect(routeGroupOf('/assets/index.js')).toBe('console');
    expect(routeGroupOf(undefined)).toBe('other');
  });
});
