// The body log never holds up or fails a request: a full queue and a failing store drop bodies, counted.
import { describe, expect, it } from 'vitest';
import { cutToBytes } from '../../src/billing/cut-to-bytes.js';
import { RequestBodyLog, type RequestBodyCapture } from '../../src/billing/request-body-log.js';
import { createLogger } from '../../src/observability/create-logger.js';
import type { RequestBodyRecord } from '../../src/storage/request-body-store.js';

function capture(requestId: string, body: string): RequestBodyCapture {
  return {
    requestId,
    createdAt: 1,
    userId: 'u',
    apiKeyId: 'k',
    endpoint: 'chat.completions',
    status: 200,
    requestBody: Buffer.from(body),
    responseBody: '{"ok":true}',
  };
}

describe('the request body log queue', () => {
  it('cuts bodies at the cap without splitting a character, from bytes and from text', () => {
    expect(cutToBytes('abc', 3)).toEqual({ text: 'abc', bytes: 3, truncated: false });
    expect(cutToBytes('aé', 2)).toEqual({ text: 'a', bytes: 3, truncated: true });
    expect(cutToBytes(Buffer.from('ab😀c'), 5)).toEqual({ text: 'ab', bytes: 7, truncated: true });
    expect(cutToBytes(`a${'😀'}`, 3)).toEqual({ text: 'a', bytes: 5, truncated: true });
  });

  it('drops captures beyond its byte bound and writes the rest in one batch', async () => {
    const written: RequestBodyRecord[][] = [];
    const log = new RequestBodyLog({
      store: { writeRequestBodies: async (records) => void written.push([...records]) },
      maxBytes: 100,
      logger: createLogger('silent'),
      queueLimitBytes: 250,
    });
    for (let index = 0; index < 5; index++) log.record(capture(`r${index}`, 'x'.repeat(100)));
    expect(log.dropped).toBe(3);
    await log.close();
    expect(written.map((batch) => batch.map((record) => record.requestId))).toEqual([['r0', 'r1']]);
  });

  it('drops a batch the store refuses and keeps going', async () => {
    let failing = true;
    const written: string[] = [];
    const log = new RequestBodyLog({
      store: {
        writeRequestBodies: async (records) => {
          if (failing) throw new Error('database is down');
          written.push(...records.map((record) => record.requestId));
        },
      },
      maxBytes: 100,
      logger: createLogger('silent'),
    });
    log.record(capture('lost', '{}'));
    await log.flush();
    expect(log.dropped).toBe(1);
    failing = false;
    log.record(capture('kept', '{}'));
    await log.close();
    expect(written).toEqual(['kept']);
  });
});
