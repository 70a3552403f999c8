// The Responses and Messages pass-throughs and a vendor that misbehaves: an event that is not JSON ends the answer
// with the protocol's failure ending (before any frame another channel answers), a failed response's vendor text is
// redacted of the channel's secrets, and a whole answer without its main array or with usage that is not an object
// is refused (502) instead of relayed.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { RoutableChannel } from '../../routing/routing-table.js';
import type { ClientSink } from '../client-sink.js';
import { ClientStreamWriter } from '../client-stream-writer.js';
import { createMessagesPassThrough } from '../../protocols/anthropic-messages/messages-pass-through.js';
import { UnreadableUpstreamAnswer } from './pass-through-protocol.js';
import { relayPassThroughStream } from './relay-pass-through-stream.js';
import { createResponsesPassThrough } from '../../protocols/openai-responses/responses-pass-through.js';

const channelSecret = 'sk-proj-CHANNEL-SECRET-000000000001';

function channelOf(protocol: RoutableChannel['protocol']): RoutableChannel {
  return {
    id: `ch-${protocol}`,
    name: protocol,
    protocol,
    baseUrl: 'http://vendor.test/v1',
    secret: channelSecret,
    priority: 0,
    weight: 1,
    ownedBy: protocol,
    modelMapping: new Map(),
    settings: { responsesApi: 'true', apiVersion: '2023-06-01' },
  };
}

function responsesPassThrough() {
  return createResponsesPassThrough({
    body: { model: 'gpt-public', input: 'hi' },
    responseId: 'resp_gateway',
    model: 'gpt-public',
    chain: null,
    isGatewaySealed: () => false,
    onFinalResponse: () => Promise.resolve(),
  });
}

function messagesPassThrough() {
  return createMessagesPassThrough({
    body: { model: 'claude-public', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] },
    anthropicVersion: undefined,
    anthropicBeta: undefined,
    messageId: 'msg_gateway',
    model: 'claude-public',
    unsealArtefact: () => null,
  });
}

const created = {
  event: 'response.created',
  data: JSON.stringify({
    type: 'response.created',
    sequence_number: 0,
    response: { id: 'resp_vendor', object: 'response', status: 'in_progress', output: [] },
  }),
};

describe('the Responses pass-through and a misbehaving vendor', () => {
  it('ends the stream with response.failed at an event that is an HTML page', async () => {
    const relay = responsesPassThrough().createStreamRelay(channelOf('openai'));
    await relay.relayEvent(created);
    const step = await relay.relayEvent({ event: 'response.output_text.delta', data: '<html>proxy error</html>' });
    expect(step.terminal).toBe(true);
    expect(step.failure?.code).toBe('upstream_error');
    expect(step.frames.join('')).toContain('event: response.failed');
    expect(step.frames.join('')).not.toContain('<html>');
  });

  it('writes nothing for an unreadable first event, so another channel can answer', async () => {
    const step = await responsesPassThrough()
      .createStreamRelay(channelOf('openai'))
      .relayEvent({ event: undefined, data: '<html>proxy error</html>' });
    expect(step.frames).toEqual([]);
    expect(step.failure).toBeDefined();
  });

  it("redacts the channel's secret from a vendor's response.failed", async () => {
    const relay = responsesPassThrough().createStreamRelay(channelOf('openai'));
    await relay.relayEvent(created);
    const failed = {
      type: 'response.failed',
      sequence_number: 3,
      response: {
        id: 'resp_vendor',
        object: 'response',
        status: 'failed',
        output: [],
        error: { code: 'server_error', message: `key ${channelSecret} revoked` },
      },
    };
    const step = await relay.relayEvent({ event: 'response.failed', data: JSON.stringify(failed) });
    expect(step.terminal).toBe(true);
    expect(step.frames.join('')).not.toContain(channelSecret);
    expect(step.frames.join('')).toContain('revoked');
  });

  it('refuses a whole Response without output, or with usage that is not an object', async () => {
    const passThrough = responsesPassThrough();
    const channel = channelOf('openai');
    await expect(
      passThrough.rewriteAnswer(JSON.stringify({ id: 'resp_1', object: 'response', status: 'completed' }), channel),
    ).rejects.toBeInstanceOf(UnreadableUpstreamAnswer);
    await expect(
      passThrough.rewriteAnswer(
        JSON.stringify({ id: 'resp_1', object: 'response', status: 'completed', output: [], usage: 'lots' }),
        channel,
      ),
    ).rejects.toBeInstanceOf(UnreadableUpstreamAnswer);
    await expect(
      passThrough.rewriteAnswer(
        JSON.stringify({ id: 'resp_1', object: 'response', status: 'completed', output: [], usage: null }),
        channel,
      ),
    ).resolves.toBeDefined();
  });
});

describe('the Messages pass-through and a misbehaving vendor', () => {
  it('ends the stream with an error event at an event that is an HTML page, and writes nothing when it comes first', async () => {
    const channel = channelOf('anthropic');
    const relay = messagesPassThrough().createStreamRelay(channel);
    const first = await relay.relayEvent({ event: 'content_block_delta', data: '<html>proxy error</html>' });
    expect(first.frames).toEqual([]);
    expect(first.failure?.status).toBe(502);

    const later = messagesPassThrough().createStreamRelay(channel);
    await later.relayEvent({
      event: 'message_start',
      data: JSON.stringify({
        type: 'message_start',
        message: { id: 'msg_vendor', usage: { input_tokens: 3, output_tokens: 1 } },
      }),
    });
    const step = await later.relayEvent({ event: 'content_block_delta', data: '<html>proxy error</html>' });
    expect(step.terminal).toBe(true);
    expect(step.frames.join('')).toContain('event: error');
    expect(step.frames.join('')).not.toContain('<html>');
  });

  it("redacts the channel's secret from a vendor's mid-stream error event", async () => {
    const relay = messagesPassThrough().createStreamRelay(channelOf('anthropic'));
    await relay.relayEvent({
      event: 'message_start',
      data: JSON.stringify({ type: 'message_start', message: { id: 'msg_vendor' } }),
    });
    const step = await relay.relayEvent({
      event: 'error',
      data: JSON.stringify({ type: 'error', error: { type: 'api_error', message: `key ${channelSecret} revoked` } }),
    });
    expect(step.frames.join('')).not.toContain(channelSecret);
    expect(step.failure?.message).not.toContain(channelSecret);
  });

  it('refuses a whole Message without content, or with usage that is not an object', async () => {
    const passThrough = messagesPassThrough();
    const channel = channelOf('anthropic');
    expect(() =>
      passThrough.rewriteAnswer(JSON.stringify({ id: 'msg_1', type: 'message', role: 'assistant' }), channel),
    ).toThrow(UnreadableUpstreamAnswer);
    expect(() =>
      passThrough.rewriteAnswer(
        JSON.stringify({ id: 'msg_1', type: 'message', role: 'assistant', content: [], usage: 'lots' }),
        channel,
      ),
    ).toThrow(UnreadableUpstreamAnswer);
  });
});

describe('the pass-through relay and an event larger than the cap', () => {
  it("ends the stream with the protocol's failure ending instead of buffering the event whole", async () => {
    const written: string[] = [];
    const client = {
      gone: false,
      needsDrain: false,
      startStream() {},
      writeHead() {},
      write: (chunk: string) => written.push(chunk),
      end: (chunk?: string) => (chunk ? written.push(chunk) : 0),
    };
    const writer = new ClientStreamWriter({
      client: client as unknown as ClientSink,
      responseHeaders: {},
      clock: () => 1,
      clientDrainTimeoutMs: 0,
    });
    const huge = Array.from({ length: 10 }, () => 'x'.repeat(100));
    const body = Readable.from(
      [
        `event: response.created\ndata: ${created.data}\n\n`,
        'event: response.output_text.delta\ndata: {"delta":"',
        ...huge,
        '"}\n\n',
      ].map((text) => Buffer.from(text)),
    );
    const result = await relayPassThroughStream({
      upstreamBody: body,
      writer,
      relay: responsesPassThrough().createStreamRelay(channelOf('openai')),
      maxEventCharacters: 500,
    });
    expect(result.kind).toBe('relayed');
    if (result.kind !== 'relayed') return;
    expect(result.outcome.error?.code).toBe('upstream_error');
    expect(written.join('')).toContain('event: response.failed');
    expect(written.join('')).not.toContain('xxxx');
  });
});
