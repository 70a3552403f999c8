import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../core/gateway-error.js';
import { FastifyClientSink } from './fastify-client-sink.js';

/** An app whose routes take the response over for a stream, then fail before writing its head, as dispatch does after a failover runs out of channels. */
async function appThatFailsAfterTakeOver() {
  const app = Fastify({ genReqId: () => 'req_test' });
  const failAfterTakeOver = async (_request: FastifyRequest, reply: FastifyReply) => {
    const sink = new FastifyClientSink(reply);
    sink.startStream();
    sink.endWithError(
      new GatewayError('service_unavailable', 'No upstream channel could serve the request; retry later.', {
        headers: { 'retry-after': '2' },
      }),
    );
    return reply;
  };
  app.post('/v1/messages', failAfterTakeOver);
  app.post('/v1/chat/completions', failAfterTakeOver);
  await app.ready();
  return app;
}

describe('errors written by the client sink after the response was taken over', () => {
  it("take Anthropic's shape and status on /v1/messages, with the request id", async () => {
    const app = await appThatFailsAfterTakeOver();
    const response = await app.inject({ method: 'POST', url: '/v1/messages?beta=true', payload: {} });
    expect(response.statusCode).toBe(529);
    expect(response.headers).toMatchObject({
      'request-id': 'req_test',
      'x-request-id': 'req_test',
      'retry-after': '2',
    });
    expect(response.json()).toEqual({
      type: 'error',
      error: { type: 'overloaded_error', message: 'No upstream channel could serve the request; retry later.' },
      request_id: 'req_test',
    });
    await app.close();
  });

  it("keep OpenAI's shape elsewhere", async () => {
    const app = await appThatFailsAfterTakeOver();
    const response = await app.inject({ method: 'POST', url: '/v1/chat/completions', payload: {} });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ error: { type: 'server_error', code: 'service_unavailable' } });
    await app.close();
  });
});
