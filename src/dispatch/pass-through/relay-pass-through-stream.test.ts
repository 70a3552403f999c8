import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/gateway-error.js';
import type { ClientSink } from '../client-sink.js';
import { ClientStreamWriter } from '../client-stream-writer.js';
import type { PassThroughStreamRelay } from './pass-through-protocol.js';
import { relayPassThroughStream } from './relay-pass-through-stream.js';

/** A client that records what was written to it. */
function recordingClient() {
  const written: string[] = [];
  const state = { head: undefined as number | undefined, ended: false, gone: false };
  const client = {
    get gone() {
      return state.gone;
    },
    needsDrain: false,
    startStream() {},
    writeHead(status: number) {
      state.head = status;
    },
    write(chunk: string) {
      written.push(chunk);
    },
    end(chunk?: string) {
      if (chunk) written.push(chunk);
      state.ended = true;
    },
  };
  const writer = new ClientStreamWriter({
    client: client as unknown as ClientSink,
    responseHeaders: {},
    clock: () => 1_000,
    clientDrainTimeoutMs: 0,
  });
  return { writer, written, state };
}

/** A relay that writes each event's data as its own frame; `fail` in the data reports a failure, `end` is terminal. */
function echoRelay(): PassThroughStreamRelay {
  return {
    relayEvent(event) {
      if (event.data === 'fail') return { frames: [], failure: new GatewayError('server_error', 'vendor failed') };
      return {
        frames: [`data: ${event.data}\n\n`],
        terminal: event.data === 'end',
        ...(event.data === 'end'
          ? {
              usage: {
                promptTokens: 1,
                completionTokens: 2,
                totalTokens: 3,
                cachedPromptTokens: 0,
                reasoningTokens: 0,
              },
            }
          : {}),
      };
    },
    cutOff: (failure) => [`data: cut ${failure.message}\n\n`],
  };
}

function upstream(...chunks: string[]): Readable {
  return Readable.from(chunks.map((chunk) => Buffer.from(chunk)));
}

function brokenUpstream(...chunks: string[]): Readable {
  return Readable.from(
    (async function* () {
      for (const chunk of chunks) yield Buffer.from(chunk);
      throw new Error('socket reset');
    })(),
  );
}

describe('relayPassThroughStream', () => {
  it('relays every frame, reads the usage of the terminal event, and stops reading there', async () => {
    const { writer, written, state } = recordingClient();
    const result = await relayPassThroughStream({
      upstreamBody: upstream('data: a\n\ndata: b\n\n', 'data: end\n\ndata: after\n\n'),
      writer,
      relay: echoRelay(),
    });
    expect(written.join('')).toBe('data: a\n\ndata: b\n\ndata: end\n\n');
    expect(result).toEqual({
      kind: 'relayed',
      outcome: { usage: expect.objectContaining({ completionTokens: 2 }), firstEventAt: 1_000, error: undefined },
    });
    expect(state).toMatchObject({ head: 200, ended: true });
  });

  it('writes nothing, not even the head, when the vendor fails before the first frame, so another channel can answer', async () => {
    const { writer, written, state } = recordingClient();
    const result = await relayPassThroughStream({
      upstreamBody: upstream('data: fail\n\n'),
      writer,
      relay: echoRelay(),
    });
    expect(result).toMatchObject({ kind: 'failed-before-first-byte', error: { message: 'vendor failed' } });
    expect(written).toEqual([]);
    expect(state.head).toBeUndefined();
  });

  it('treats an upstream that breaks before any event as failed before the first byte', async () => {
    const { writer, state } = recordingClient();
    expect(await relayPassThroughStream({ upstreamBody: brokenUpstream(), writer, relay: echoRelay() })).toMatchObject({
      kind: 'failed-before-first-byte',
    });
    expect(state.head).toBeUndefined();
  });

  it("ends a stream cut off after its first frame with the protocol's failure frames, never a fake success", async () => {
    const { writer, written } = recordingClient();
    const result = await relayPassThroughStream({
      upstreamBody: brokenUpstream('data: a\n\n'),
      writer,
      relay: echoRelay(),
    });
    expect(written.join('')).toBe(
      'data: a\n\ndata: cut The upstream stream ended unexpectedly; the answer is incomplete.\n\n',
    );
    expect(result).toMatchObject({ kind: 'relayed', outcome: { error: { code: 'server_error' } } });
  });

  it('ends a stream that simply stops before its terminal event the same way', async () => {
    const { writer, written } = recordingClient();
    await relayPassThroughStream({ upstreamBody: upstream('data: a\n\n'), writer, relay: echoRelay() });
    expect(written.at(-1)).toMatch(/^data: cut /);
  });

  it('stops relaying when the client is gone, writing no ending', async () => {
    const { writer, written, state } = recordingClient();
    const relay = echoRelay();
    const leavingRelay: PassThroughStreamRelay = {
      ...relay,
      relayEvent(event) {
        const step = relay.relayEvent(event);
        state.gone = true;
        return step;
      },
    };
    const result = await relayPassThroughStream({
      upstreamBody: upstream('data: a\n\n', 'data: b\n\n'),
      writer,
      relay: leavingRelay,
    });
    // The client left while its first event was mapped: nothing reaches it any more, not even that event.
    expect(written).toEqual([]);
    expect(state.ended).toBe(false);
    expect(result.kind).toBe('relayed');
  });
});
