import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { lazySchemaCompilers } from './lazy-schema-compilers.js';

describe('lazySchemaCompilers', () => {
  it("validates and serializes a route schema as Fastify's own compilers do, once one is declared", async () => {
    const app = Fastify({ schemaController: { compilersFactory: lazySchemaCompilers } });
    app.post(
      '/echo',
      {
        schema: {
          body: { type: 'object', required: ['count'], properties: { count: { type: 'integer', minimum: 1 } } },
          response: { 200: { type: 'object', properties: { count: { type: 'integer' } } } },
        },
      },
      // The response schema drops what it does not list, as fast-json-stringify does.
      async (request) => ({ count: (request.body as { count: number }).count, secret: 'not serialized' }),
    );
    const refused = await app.inject({ method: 'POST', url: '/echo', payload: { count: 0 } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'FST_ERR_VALIDATION', message: 'body/count must be >= 1' });
    const answered = await app.inject({ method: 'POST', url: '/echo', payload: { count: 2 } });
    expect(answered.statusCode).toBe(200);
    expect(answered.body).toBe('{"count":2}');
    await app.close();
  });
});
