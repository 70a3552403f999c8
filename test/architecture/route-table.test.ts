import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientProtocolRoutes } from '../../src/server/routes/client-protocol-routes.js';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';

// The route table is the one place a client path is mapped to its protocol (ADR 0022): what it lists must be served.
describe('the client protocol route table', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startTestGateway();
  });
  afterAll(async () => {
    await gateway.close();
  });

  it('registers every path of every entry in the running app', () => {
    const missing = clientProtocolRoutes
      .flatMap((entry) => entry.paths.map((path) => ({ protocol: entry.protocol, ...path })))
      .filter(({ method, url }) => !gateway.running.app.hasRoute({ method, url }));
    expect(missing).toEqual([]);
  });

  it('names a protocol for every entry and lists each path once', () => {
    const paths = clientProtocolRoutes.flatMap((entry) => entry.paths.map(({ method, url }) => `${method} ${url}`));
    expect(new Set(paths).size).toBe(paths.length);
    expect(clientProtocolRoutes.filter((entry) => entry.protocol === '' || entry.paths.length === 0)).toEqual([]);
  });

  it('answers a listed path through the keyed scope (a request without a key is refused, not unknown)', async () => {
    const answer = await fetch(`${gateway.baseURL}/chat/completions`, { method: 'POST', body: '{}' });
    expect(answer.status).toBe(401);
  });
});
