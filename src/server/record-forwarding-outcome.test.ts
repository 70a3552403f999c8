import { Writable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { DispatchOutcome } from '../dispatch/dispatch-request.js';
import { createGatewayMetrics } from '../observability/gateway-metrics.js';
import type { GatewayServices } from './gateway-services.js';
import { outcomeForLog, recordForwardingOutcome } from './record-forwarding-outcome.js';

const modelOutput = 'the whole answer the model wrote, which no log line may hold';

function outcome(changes: Partial<DispatchOutcome> = {}): DispatchOutcome {
  return {
    channelId: 'channel-1',
    status: 200,
    usage: undefined,
    firstByteAt: 5,
    errorCode: undefined,
    clientAborted: true,
    sentUpstream: true,
    usageUnknown: true,
    generatedText: modelOutput,
    answerUsage: { text: modelOutput },
    ...changes,
  };
}

describe('the request-finished debug line', () => {
  it('holds status, ids, counts and lengths, never the model output', () => {
    const lines: string[] = [];
    const logger = pino(
      { level: 'debug' },
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(chunk.toString('utf8'));
          done();
        },
      }),
    );
    // Only what recordForwardingOutcome reads of the services and the request.
    const services = { metrics: createGatewayMetrics(), clock: () => 10, logger } as unknown as GatewayServices;
    const request = {
      receivedAt: 0,
      principal: { userId: 'user-1', apiKeyId: 'key-1' },
      log: logger,
    } as unknown as FastifyRequest;
    recordForwardingOutcome(services, request, 'chat', outcome());
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain('the whole answer');
    const entry = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(entry).toMatchObject({
      msg: 'request finished',
      endpoint: 'chat',
      userId: 'user-1',
      apiKeyId: 'key-1',
      channelId: 'channel-1',
      status: 200,
      generatedTextLength: modelOutput.length,
      answerTextLength: modelOutput.length,
    });
  });

  it('keeps the image count and leaves lengths out when there is no text', () => {
    const summary = outcomeForLog(outcome({ generatedText: undefined, answerUsage: { images: 2 } }));
    expect(summary.generatedTextLength).toBeUndefined();
    expect(summary.answerTextLength).toBeUndefined();
    expect(summary.answerImages).toBe(2);
    expect(Object.values(summary)).not.toContain(modelOutput);
  });
});
