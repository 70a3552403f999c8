import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createLazyRequestLogger } from './lazy-request-logger.js';

/** A Fastify app whose request logger is lazy, logging at `warn` into `lines`, with a count of children built. */
function appWithLazyLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const logger = pino({ level: 'warn', redact: { paths: ['secret'], censor: '[redacted]' } }, destination);
  const childrenBuilt = { count: 0 };
  const child = logger.child.bind(logger);
  logger.child = ((...args: Parameters<typeof child>) => {
    childrenBuilt.count += 1;
    return child(...args);
  }) as typeof logger.child;
  const app = Fastify({
    loggerInstance: logger,
    disableRequestLogging: true,
    childLoggerFactory: createLazyRequestLogger,
  });
  app.get('/quiet', async (request) => {
    request.log.info('below the level');
    return { ok: true };
  });
  app.get('/loud', async (request) => {
    request.log.error({ secret: 'sk-123' }, 'something failed');
    return { ok: true };
  });
  return { app, lines, childrenBuilt };
}

describe('createLazyRequestLogger', () => {
  it('builds no child logger for a request that logs nothing at an enabled level', async () => {
    const { app, lines, childrenBuilt } = appWithLazyLogger();
    await app.ready();
    const builtAtStart = childrenBuilt.count;
    expect((await app.inject({ url: '/quiet' })).statusCode).toBe(200);
    expect(childrenBuilt.count).toBe(builtAtStart);
    expect(lines).toEqual([]);
  });

  it('writes an enabled line with the request id and redaction, as a pino child would', async () => {
    const { app, lines, childrenBuilt } = appWithLazyLogger();
    await app.ready();
    const builtAtStart = childrenBuilt.count;
    await app.inject({ url: '/loud' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(childrenBuilt.count).toBe(builtAtStart + 1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 50, msg: 'something failed', secret: '[redacted]' });
    expect(String(lines[0]!.reqId)).toMatch(/^req-/);
  });
});
