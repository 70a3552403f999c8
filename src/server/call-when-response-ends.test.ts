import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { callWhenResponseEnds } from './call-when-response-ends.js';

describe('callWhenResponseEnds', () => {
  const app = Fastify();
  afterEach(async () => {
    await app.close();
  });

  it('runs every guard once when the response ends, through one close listener on the response', async () => {
    const ended: number[] = [];
    let listeners = 0;
    app.addHook('onRequest', (request, reply, done) => {
      const before = reply.raw.listenerCount('close');
      for (let guard = 0; guard < 12; guard++) callWhenResponseEnds(request, reply, () => ended.push(guard));
      listeners = reply.raw.listenerCount('close') - before;
      done();
    });
    app.get('/', async () => ({ ok: true }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    const answer = await fetch(`http://127.0.0.1:${address.port}/`);
    expect(await answer.json()).toEqual({ ok: true });
    await expect.poll(() => ended.length).toBe(12);
    expect(listeners).toBe(1);
    expect([...ended].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  });
});
