// The stream rules of issue 37, one behaviour per test: an event whose data is not JSON ends the answer (an error
// event and no [DONE]; before the first byte another channel may answer, else 502), non-`data:` garbage lines are
// ignored, a cut-off stream ends with an error event, and a vendor's mid-stream error text is redacted of the
// channel's secrets, for the OpenAI-wire relay, the translated relay and each vendor's stream decoder.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CanonicalStreamPart } from '../core/canonical/canonical-stream-part.js';
import type { ClientStreamEncoder } from '../core/canonical/client-answer-codec.js';
import { decodeAnthropicStream } from '../providers/anthropic/decode-anthropic-stream.js';
import { decodeGeminiStream } from '../providers/gemini/decode-gemini-stream.js';
import { decodeOpenAiChatStream } from '../providers/openai/decode-openai-chat-answer.js';
import { readServerSentEvents } from '../providers/read-server-sent-events.js';
import type { VendorCall } from '../providers/vendor-adapter.js';
import type { ClientSink } from './client-sink.js';
import { ClientStreamWriter } from './client-stream-writer.js';
import { relayCanonicalStream } from './relay-canonical-stream.js';
import { relayOpenAiEventStream, StreamFailedBeforeFirstEvent } from './relay-openai-event-stream.js';
import { isStreamContentType } from './relay-stream-errors.js';

/** A client that records every write and whether the head went out. */
function recordingClient() {
  const writes: string[] = [];
  const state = { head: false };
  const client = {
    gone: false,
    needsDrain: false,
    startStream() {},
    writeHead() {
      state.head = true;
    },
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
  return { writer, writes, state };
}

const upstream = (...chunks: string[]): Readable => Readable.from(chunks.map((chunk) => Buffer.from(chunk)));
const chunk = (content: string): string => `data: {"choices":[{"index":0,"delta":{"content":"${content}"}}]}\n\n`;
const channelSecret = 'sk-live-CHANNEL-SECRET-0001';
const redactSecret = (text: string): string => text.replaceAll(channelSecret, '[redacted]');
const call = {} as VendorCall;

async function collectParts(parts: AsyncIterable<CanonicalStreamPart>): Promise<CanonicalStreamPart[]> {
  const collected: CanonicalStreamPart[] = [];
  for await (const part of parts) collected.push(part);
  return collected;
}

describe('the OpenAI-wire stream relay and a vendor that misbehaves', () => {
  it('ends the stream with an error event and no [DONE] at an event that is an HTML page, relaying nothing after it', async () => {
    const { writer, writes } = recordingClient();
    const outcome = await relayOpenAiEventStream({
      upstreamBody: upstream(
        chunk('a'),
        'data: <html><body>502 Bad Gateway</body></html>\n\n',
        chunk('b'),
        'data: [DONE]\n\n',
      ),
      writer,
      clientWantsUsage: false,
      knownSecrets: [],
    });
    const all = writes.join('');
    expect(outcome.completed).toBe(false);
    expect(outcome.error?.code).toBe('upstream_error');
    expect(all).not.toContain('[DONE]');
    expect(all).not.toContain('<html>');
    expect(all).not.toContain('"b"');
    expect(JSON.parse(writes.at(-1)?.replace(/^data: /, '') ?? '{}')).toMatchObject({
      error: { code: 'upstream_error', type: 'server_error' },
    });
  });

  it('treats cut-off JSON in an event the same way', async () => {
    const { writer, writes } = recordingClient();
    const outcome = await relayOpenAiEventStream({
      upstreamBody: upstream(chunk('a'), 'data: {"choices":[{"index":0,"del\n\n', 'data: [DONE]\n\n'),
      writer,
      clientWantsUsage: false,
      knownSecrets: [],
    });
    expect(outcome.error?.code).toBe('upstream_error');
    expect(writes.join('')).not.toContain('[DONE]');
  });

  it('writes nothing and lets another channel answer (a 502 when none can) when the first event is not JSON', async () => {
    const { writer, writes, state } = recordingClient();
    const relayed = relayOpenAiEventStream({
      upstreamBody: upstream('data: <html>oops</html>\n\n', 'data: [DONE]\n\n'),
      writer,
      clientWantsUsage: false,
      knownSecrets: [],
    });
    const failure: unknown = await relayed.catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StreamFailedBeforeFirstEvent);
    expect((failure as StreamFailedBeforeFirstEvent).error?.status).toBe(502);
    expect(writes).toEqual([]);
    expect(state.head).toBe(false);
  });

  it('ignores lines that are not `data:` fields (comments, unknown fields, lines without a colon), as SSE says', async () => {
    const { writer, writes } = recordingClient();
    const garbage = ': keep-alive\n\nnot a field at all\nretry: soon\n\n';
    const outcome = await relayOpenAiEventStream({
      upstreamBody: upstream(garbage, chunk('a'), garbage, chunk('b'), garbage, 'data: [DONE]\n\n'),
      writer,
      clientWantsUsage: false,
      knownSecrets: [],
    });
    expect(outcome.completed).toBe(true);
    expect(writes.join('')).toBe(chunk('a') + chunk('b') + 'data: [DONE]\n\n');
  });

  it('ends a stream the vendor ended without [DONE] with an error event', async () => {
    const { writer, writes } = recordingClient();
    const outcome = await relayOpenAiEventStream({
      upstreamBody: upstream(chunk('a')),
      writer,
      clientWantsUsage: false,
      knownSecrets: [],
    });
    expect(outcome.completed).toBe(false);
    expect(outcome.error?.code).toBe('server_error');
    expect(writes.at(-1)).toContain('"error"');
    expect(writes.join('')).not.toContain('[DONE]');
  });

  it('ends the stream at an event larger than the cap instead of buffering it whole', async () => {
    const { writer, writes } = recordingClient();
    const huge = `data: {"choices":[{"index":0,"delta":{"content":"${'x'.repeat(1_000)}`;
    const pieces = [
      chunk('a'),
      ...Array.from({ length: 10 }, (_, index) => huge.slice(index * 100, (index + 1) * 100)),
      huge.slice(1_000),
      '"}}]}\n\n',
      'data: [DONE]\n\n',
    ];
    const outcome = await relayOpenAiEventStream({
      upstreamBody: upstream(...pieces),
      writer,
      clientWantsUsage: false,
      knownSecrets: [],
      maxEventCharacters: 500,
    });
    expect(outcome.error?.code).toBe('upstream_error');
    expect(writes.join('')).not.toContain('xxxx');
    expect(writes.join('')).not.toContain('[DONE]');
  });

  it("relays a vendor's mid-stream error event with the channel's secret and key-shaped strings removed", async () => {
    const { writer, writes } = recordingClient();
    const vendorError = `data: {"error":{"message":"key ${channelSecret} is over quota","type":"server_error"}}\n\n`;
    const outcome = await relayOpenAiEventStream({
      upstreamBody: upstream(chunk('a'), vendorError),
      writer,
      clientWantsUsage: false,
      knownSecrets: [],
      redact: redactSecret,
    });
    expect(writes.join('')).not.toContain(channelSecret);
    expect(outcome.error?.message).toContain('[redacted]');
    expect(writes.join('')).not.toContain('[DONE]');
  });

  it('lets another channel answer when the vendor sends its error event before any content', async () => {
    const { writer, writes } = recordingClient();
    const vendorError = 'data: {"error":{"message":"boom","type":"server_error"}}\n\n';
    const failure: unknown = await relayOpenAiEventStream({
      upstreamBody: upstream(vendorError),
      writer,
      clientWantsUsage: false,
      knownSecrets: [],
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StreamFailedBeforeFirstEvent);
    expect((failure as StreamFailedBeforeFirstEvent).error?.status).toBe(502);
    expect(writes).toEqual([]);
  });
});

/** An encoder writing each text delta as one frame, `[END]` at the end and `[FAIL <message>]` on failure. */
function textEncoder(): ClientStreamEncoder {
  return {
    start: () => [],
    push: (part) => (part.type === 'text-delta' ? [`data: ${part.text}\n\n`] : []),
    end: () => ['data: [END]\n\n'],
    fail: (failure) => [`data: [FAIL ${failure.message}]\n\n`],
  };
}

async function* partsOf(...parts: CanonicalStreamPart[]): AsyncGenerator<CanonicalStreamPart> {
  for (const part of parts) yield await Promise.resolve(part);
}

describe('the translated stream relay and a vendor that misbehaves', () => {
  it("redacts the channel's secret from a vendor error part after the first byte", async () => {
    const { writer, writes } = recordingClient();
    const result = await relayCanonicalStream({
      parts: partsOf(
        { type: 'response-start' },
        { type: 'text-start', blockIndex: 0 },
        { type: 'text-delta', blockIndex: 0, text: 'hi' },
        { type: 'error', failure: { code: 'server_error', message: `quota of ${channelSecret} used up` } },
      ),
      upstreamBody: upstream(),
      writer,
      encoder: textEncoder(),
      redact: redactSecret,
    });
    expect(result.kind).toBe('relayed');
    expect(writes.join('')).not.toContain(channelSecret);
    expect(writes.at(-1)).toBe('data: [FAIL quota of [redacted] used up]\n\n');
  });

  it('answers a vendor failure before the first byte as a 502 another channel may replace, redacted', async () => {
    const { writer, writes } = recordingClient();
    const result = await relayCanonicalStream({
      parts: partsOf(
        { type: 'response-start' },
        { type: 'error', failure: { code: 'server_error', message: `bad key ${channelSecret}` } },
      ),
      upstreamBody: upstream(),
      writer,
      encoder: textEncoder(),
      redact: redactSecret,
    });
    expect(result.kind).toBe('failed-before-first-byte');
    if (result.kind !== 'failed-before-first-byte') return;
    expect(result.error.status).toBe(502);
    expect(result.error.message).toBe('bad key [redacted]');
    expect(writes).toEqual([]);
  });
});

describe('stream decoders and an event that is not JSON', () => {
  const unreadable = {
    type: 'error',
    failure: { code: 'server_error', message: expect.stringContaining('could not read') as unknown },
  };

  it('Anthropic: an HTML event ends the parts with an error part', async () => {
    const body = upstream(
      'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","model":"claude","usage":{"input_tokens":3,"output_tokens":1}}}\n\n',
      'event: content_block_delta\ndata: <html>proxy error</html>\n\n',
      'event: message_stop\ndata: {"type":"message_stop"}\n\n',
    );
    const parts = await collectParts(decodeAnthropicStream(body, call));
    expect(parts.at(-1)).toMatchObject(unreadable);
    expect(parts.filter((part) => part.type === 'error')).toHaveLength(1);
  });

  it('Gemini: an HTML event ends the parts with an error part', async () => {
    const body = upstream(
      'data: {"candidates":[{"content":{"role":"model","parts":[{"text":"hi"}]},"index":0}]}\r\n\r\n',
      'data: <html>proxy error</html>\r\n\r\n',
    );
    const parts = await collectParts(decodeGeminiStream(body, call));
    expect(parts.at(-1)).toMatchObject(unreadable);
  });

  it('OpenAI chat (translated for Responses and Messages clients): an HTML event ends the parts with an error part', async () => {
    const body = upstream(chunk('hi'), 'data: <html>proxy error</html>\n\n', 'data: [DONE]\n\n');
    const parts = await collectParts(decodeOpenAiChatStream(body, call));
    expect(parts.at(-1)).toMatchObject(unreadable);
  });

  it('a decoder fails the read at an event larger than the cap (the relay then ends the stream with an error)', async () => {
    const pieces = Array.from({ length: 10 }, () => 'x'.repeat(100));
    const events: unknown[] = [];
    const capped = (async () => {
      for await (const event of readServerSentEvents(upstream('data: {"a":"', ...pieces, '"}\n\n'), 500))
        events.push(event);
    })();
    await expect(capped).rejects.toThrow(/larger than 500 characters/);
    expect(events).toEqual([]);
  });

  it('every decoder ignores comment and unknown-field lines', async () => {
    const body = upstream(
      ': ping\n\n',
      'data: {"candidates":[{"content":{"role":"model","parts":[{"text":"hi"}]},"finishReason":"STOP","index":0}]}\r\n\r\n',
      'nonsense line\n\n',
    );
    const parts = await collectParts(decodeGeminiStream(body, call));
    expect(parts.some((part) => part.type === 'error')).toBe(false);
    expect(parts.at(-1)).toMatchObject({ type: 'finish' });
  });
});

describe('what counts as a stream', () => {
  it('is an SSE or AWS event-stream content type, never JSON or HTML', () => {
    expect(isStreamContentType('text/event-stream; charset=utf-8')).toBe(true);
    expect(isStreamContentType('application/vnd.amazon.eventstream')).toBe(true);
    expect(isStreamContentType('application/json')).toBe(false);
    expect(isStreamContentType('text/html')).toBe(false);
    expect(isStreamContentType(undefined)).toBe(false);
  });
});
