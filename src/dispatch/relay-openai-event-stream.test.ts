import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { Agent, request } from 'undici';
import { describe, expect, it } from 'vitest';
import {
  startSplitEndStreamServer,
  waitUntilConnectionIsIdle,
} from '../../test/helpers/start-split-end-stream-server.js';
import type { ClientSink } from './client-sink.js';
import { ClientStreamWriter } from './client-stream-writer.js';
import { relayOpenAiEventStream } from './relay-openai-event-stream.js';

/** A client that records each write it receives. */
function recordingClient() {
  const writes: string[] = [];
  const client = {
    gone: false,
    needsDrain: false,
    startStream() {},
    writeHead() {},
    write(chunk: string) {
      writes.push(chunk);
    },
    end(chunk?: string) {
      if (chunk) writes.push(chunk);
    },
  };
  const writer = new ClientStreamWriter({
    client: client as unknown as ClientSink,
    responseHeaders: {},
    clock: () => 1_000,
    clientDrainTimeoutMs: 0,
  });
  return { writer, writes };
}

const chunk = (content: string) => `data: {"choices":[{"index":0,"delta":{"content":"${content}"}}]}\n\n`;

describe('relayOpenAiEventStream', () => {
  it('reads a stream its client left on to its end while it drains, writing nothing and keeping no text', async () => {
    const writes: string[] = [];
    const client = { gone: false, needsDrain: false, startStream() {}, writeHead() {}, end() {} };
    const drained: number[] = [];
    const writer = new ClientStreamWriter({
      client: {
        ...client,
        get gone() {
          return writes.length > 0;
        },
        write: (text: string) => writes.push(text),
      } as unknown as ClientSink,
      responseHeaders: {},
      clock: () => 1_000,
      clientDrainTimeoutMs: 0,
      drain: { draining: true, countDrainedBytes: (bytes) => drained.push(bytes) },
    });
    const usage = 'data: {"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":500,"total_tokens":503}}\n\n';
    const upstreamBody = Readable.from([
      Buffer.from(chunk('a')),
      Buffer.from(chunk('b')),
      Buffer.from(usage),
      Buffer.from('data: [DONE]\n\n'),
    ]);
    const outcome = await relayOpenAiEventStream({ upstreamBody, writer, clientWantsUsage: false, knownSecrets: [] });
    // The first write made the (recorded) client leave: nothing more was written, yet the usage was read.
    expect(writes).toEqual([chunk('a')]);
    expect(outcome).toMatchObject({ completed: true, usage: { promptTokens: 3, completionTokens: 500 } });
    expect(outcome.generatedText).toBeUndefined();
    expect(drained).toEqual([chunk('b').length, usage.length, 'data: [DONE]\n\n'.length]);
  });

  it('stops reading a stream its client left when it is not drained', async () => {
    let gone = false;
    const writer = new ClientStreamWriter({
      client: {
        get gone() {
          return gone;
        },
        needsDrain: false,
        startStream() {},
        writeHead() {},
        write: () => (gone = true),
        end() {},
      } as unknown as ClientSink,
      responseHeaders: {},
      clock: () => 1_000,
      clientDrainTimeoutMs: 0,
      drain: { draining: false, countDrainedBytes: () => undefined },
    });
    const usage = 'data: {"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":500,"total_tokens":503}}\n\n';
    const upstreamBody = Readable.from([Buffer.from(chunk('a')), Buffer.from(usage), Buffer.from('data: [DONE]\n\n')]);
    const outcome = await relayOpenAiEventStream({ upstreamBody, writer, clientWantsUsage: false, knownSecrets: [] });
    expect(outcome).toMatchObject({ completed: false, usage: undefined });
  });

  it('writes the first event at once, then the events of one upstream read in one client write', async () => {
    const { writer, writes } = recordingClient();
    const upstreamBody = Readable.from([
      Buffer.from(chunk('a') + chunk('b') + chunk('c')),
      Buffer.from(chunk('d') + chunk('e')),
      Buffer.from('data: [DONE]\n\n'),
    ]);
    const outcome = await relayOpenAiEventStream({ upstreamBody, writer, clientWantsUsage: false, knownSecrets: [] });
    expect(outcome.completed).toBe(true);
    expect(writes).toEqual([chunk('a'), chunk('b') + chunk('c'), chunk('d') + chunk('e'), 'data: [DONE]\n\n']);
  });

  it('does not count a usage chunk the client did not ask for as the first event', async () => {
    const { writer, writes } = recordingClient();
    const usageOnly = 'data: {"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":1,"total_tokens":4}}\n\n';
    const upstreamBody = Readable.from([
      Buffer.from(usageOnly + chunk('a') + chunk('b')),
      Buffer.from('data: [DONE]\n\n'),
    ]);
    await relayOpenAiEventStream({ upstreamBody, writer, clientWantsUsage: false, knownSecrets: [] });
    expect(writes).toEqual([chunk('a'), chunk('b'), 'data: [DONE]\n\n']);
  });

  it('writes an event split across reads once it is whole', async () => {
    const { writer, writes } = recordingClient();
    const whole = chunk('split');
    const upstreamBody = Readable.from([
      Buffer.from(whole.slice(0, 20)),
      Buffer.from(whole.slice(20)),
      Buffer.from('data: [DONE]\n\n'),
    ]);
    await relayOpenAiEventStream({ upstreamBody, writer, clientWantsUsage: false, knownSecrets: [] });
    expect(writes).toEqual([whole, 'data: [DONE]\n\n']);
  });
});

describe('relayOpenAiEventStream and the upstream connection', () => {
  it('leaves the connection of a completed stream to be reused, even when [DONE] and the end arrive apart', async () => {
    // [DONE], then the end of the chunked body in a later packet: the relay has stopped reading by then.
    const server = await startSplitEndStreamServer(chunk('hello'), 'data: [DONE]\n\n');
    try {
      for (let stream = 0; stream < 3; stream++) {
        const response = await server.requestStream();
        const { writer, writes } = recordingClient();
        const outcome = await relayOpenAiEventStream({
          upstreamBody: response.body,
          writer,
          clientWantsUsage: false,
          knownSecrets: [],
        });
        expect(outcome.completed).toBe(true);
        expect(writes.at(-1)).toBe('data: [DONE]\n\n');
        await waitUntilConnectionIsIdle(response.body);
      }
      expect(server.connections).toBe(1);
    } finally {
      await server.close();
    }
  });
});

describe('relayOpenAiEventStream and a stream cut off upstream', () => {
  it('ends the client stream with the vendor error and closes the vendor connection instead of reusing it', async () => {
    const server = http.createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(chunk('partial'));
      // An error event, then the body stays open: the relay stops reading and closes it.
      setImmediate(() => response.write('data: {"error":{"message":"vendor failed","type":"server_error"}}\n\n'));
      setTimeout(() => response.end(), 200);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const dispatcher = new Agent({ keepAliveTimeout: 10_000 });
    try {
      const response = await request(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { dispatcher });
      const { writer, writes } = recordingClient();
      const outcome = await relayOpenAiEventStream({
        upstreamBody: response.body,
        writer,
        clientWantsUsage: false,
        knownSecrets: [],
      });
      expect(outcome.error?.message).toBe('vendor failed');
      expect(writes.at(-1)).toContain('vendor failed');
      expect(response.body.destroyed).toBe(true);
    } finally {
      await dispatcher.destroy();
      server.closeAllConnections();
      server.close();
    }
  });
});
