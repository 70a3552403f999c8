import Fastify, { type FastifyReply } from 'fastify';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import type { ResponseHeaderGroups } from '../dispatch/client-sink.js';
import { FastifyClientSink } from './fastify-client-sink.js';

const groups: ResponseHeaderGroups = [
  { 'x-ratelimit-remaining-requests': '9', 'x-request-id': 'spoofed', 'cache-control': 'max-age=60' },
  { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' },
];

async function answerWith(send: (sink: FastifyClientSink, reply: FastifyReply) => Promise<void>) {
  const app = Fastify({ genReqId: () => 'req_1' });
  app.post('/', async (_request, reply) => {
    await send(new FastifyClientSink(reply), reply);
    return reply;
  });
  // Over a real socket: the head Node writes is what a client parses, duplicate lines included.
  const origin = await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const response = await request(origin, { method: 'POST' });
    return { statusCode: response.statusCode, headers: response.headers, body: await response.body.text() };
  } finally {
    await app.close();
  }
}

describe('FastifyClientSink', () => {
  it("writes a stream's head from header groups: each name once with its last group's value, the request id and the security headers its own", async () => {
    const response = await answerWith(async (sink) => {
      sink.startStream();
      sink.writeHead(200, groups);
      sink.end('data: [DONE]\n\n');
    });
    expect(response.headers).toMatchObject({
      'x-ratelimit-remaining-requests': '9',
      'content-type': 'text/event-stream; charset=utf-8',
      'x-request-id': 'req_1',
    });
    // A stream holds model output: no-store wins over the groups' cache-control, once (not a duplicate line).
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-request-id']).toBe('req_1');
    expect(response.body).toBe('data: [DONE]\n\n');
  });

  it("sends a stream's head and first event in one socket write, and frames every later chunk", async () => {
    let socketWrites = 0;
    let writesForHeadAndFirstEvent = 0;
    const response = await answerWith(async (sink, reply) => {
      // A socket's _write and _writev each end in one system call: counting them counts the packets sent.
      const socket = reply.raw.socket!;
      const originalWrite = socket._write.bind(socket);
      const originalWritev = socket._writev!.bind(socket);
      socket._write = (...args) => {
        socketWrites++;
        originalWrite(...args);
      };
      socket._writev = (...args) => {
        socketWrites++;
        originalWritev(...args);
      };
      sink.startStream();
      sink.writeHead(200, groups);
      sink.write('data: a\n\n');
      await new Promise((resolve) => setImmediate(resolve));
      writesForHeadAndFirstEvent = socketWrites;
      sink.write('data: b\n\n');
      sink.end('data: [DONE]\n\n');
    });
    expect(writesForHeadAndFirstEvent).toBe(1);
    expect(response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(response.body).toBe('data: a\n\ndata: b\n\ndata: [DONE]\n\n');
  });

  it('sends a JSON answer with the header groups merged the same way', async () => {
    const response = await answerWith((sink) =>
      sink.sendAnswer(
        201,
        [groups[0]!, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }],
        '{"ok":true}',
      ),
    );
    expect(response.statusCode).toBe(201);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers).toMatchObject({
      'x-ratelimit-remaining-requests': '9',
      'content-type': 'application/json; charset=utf-8',
    });
    expect(JSON.parse(response.body)).toEqual({ ok: true });
  });
});
