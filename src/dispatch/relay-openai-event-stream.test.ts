import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
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
  const writer = new ClientStreamWriter({ client: client as unknown as ClientSink, responseHeaders: {}, clock: () => 1_000, clientDrainTimeoutMs: 0 });
  return { writer, writes };
}

const chunk = (content: string) => `data: {"choices":[{"index":0,"delta":{"content":"${content}"}}]}\n\n`;

describe('relayOpenAiEventStream', () => {
  it('writes the events of one upstream read in one client write, and each later read in its own', async () => {
    const { writer, writes } = recordingClient();
    const upstreamBody = Readable.from([Buffer.from(chunk('a') + chunk('b') + chunk('c')), Buffer.from(chunk('d')), Buffer.from('data: [DONE]\n\n')]);
    const outcome = await relayOpenAiEventStream({ upstreamBody, writer, clientWantsUsage: false, knownSecrets: [] });
    expect(outcome.completed).toBe(true);
    expect(writes).toEqual([chunk('a') + chunk('b') + chunk('c'), chunk('d'), 'data: [DONE]\n\n']);
  });

  it('writes an event split across reads once it is whole', async () => {
    const { writer, writes } = recordingClient();
    const whole = chunk('split');
    const upstreamBody = Readable.from([Buffer.from(whole.slice(0, 20)), Buffer.from(whole.slice(20)), Buffer.from('data: [DONE]\n\n')]);
    await relayOpenAiEventStream({ upstreamBody, writer, clientWantsUsage: false, knownSecrets: [] });
    expect(writes).toEqual([whole, 'data: [DONE]\n\n']);
  });
});
