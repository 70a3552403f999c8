import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { ClientDrainOutcome, ClientSink } from './client-sink.js';
import { streamThroughJsonAnswer, type StreamThroughJsonOptions } from './stream-through-json-answer.js';

/** A client sink that records what it was sent; `full` makes every write fill its buffer until the drain resolves. */
function createRecordingSink(
  full = false,
): ClientSink & { written: string[]; events: string[]; releaseDrain: () => void } {
  let pendingDrain: ((outcome: ClientDrainOutcome) => void) | undefined;
  let needsDrain = false;
  const sink = {
    written: [] as string[],
    events: [] as string[],
    gone: false,
    streaming: false,
    get needsDrain() {
      return needsDrain;
    },
    releaseDrain() {
      needsDrain = false;
      pendingDrain?.('drained');
    },
    onClientLeave: () => () => undefined,
    sendAnswer: () => Promise.resolve(),
    startStream() {
      sink.events.push('start');
    },
    writeHead(status: number) {
      sink.events.push(`head ${status}`);
    },
    write(chunk: string) {
      sink.written.push(chunk);
      if (full) needsDrain = true;
    },
    waitForDrain() {
      sink.events.push('wait');
      return new Promise<ClientDrainOutcome>((resolve) => (pendingDrain = resolve));
    },
    end(chunk?: string) {
      if (chunk) sink.written.push(chunk);
      sink.events.push('end');
    },
    endWithError: () => undefined,
    abort() {
      sink.events.push('abort');
    },
  };
  return sink;
}

const answer = `{"object":"list","data":[${Array.from({ length: 4000 }, () => '{"embedding":[0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8],"index":0}').join(',')}],"usage":{"prompt_tokens":7,"total_tokens":7}}`;

function chunksOf(text: string, size: number): Buffer[] {
  const bytes = Buffer.from(text);
  const chunks: Buffer[] = [];
  for (let offset = 0; offset < bytes.length; offset += size) chunks.push(bytes.subarray(offset, offset + size));
  return chunks;
}

function options(
  body: Readable,
  client: ClientSink,
  overrides: Partial<StreamThroughJsonOptions> = {},
): StreamThroughJsonOptions {
  return {
    body,
    client,
    headers: [{ 'content-type': 'application/json' }],
    maximumBytes: 10 * 1024 * 1024,
    clientDrainTimeoutMs: 0,
    clock: () => 1,
    writeToClient: true,
    checkHead: (headText) => (headText.startsWith('{') ? undefined : 'not-an-object'),
    checkTail: (tailText) => (tailText.endsWith('}') ? undefined : 'cut-off'),
    ...overrides,
  };
}

describe('streamThroughJsonAnswer', () => {
  it('relays the answer as it comes and keeps its end, usage included, for billing', async () => {
    const client = createRecordingSink();
    const result = await streamThroughJsonAnswer(options(Readable.from(chunksOf(answer, 16 * 1024)), client));
    expect(result).toMatchObject({ kind: 'relayed', fault: undefined, firstByteAt: 1 });
    expect(client.written.join('')).toBe(answer);
    expect(client.events).toEqual(['start', 'head 200', 'end']);
    expect(result.kind === 'relayed' && result.tailText.endsWith('"usage":{"prompt_tokens":7,"total_tokens":7}}')).toBe(
      true,
    );
  });

  it('waits for a full client before reading on (backpressure)', async () => {
    const client = createRecordingSink(true);
    const pending = streamThroughJsonAnswer(options(Readable.from(chunksOf(answer, 16 * 1024)), client));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const writtenWhileFull = client.written.length;
    expect(client.events.at(-1)).toBe('wait');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(client.written.length).toBe(writtenWhileFull);
    const release = setInterval(() => client.releaseDrain(), 1);
    const result = await pending;
    clearInterval(release);
    expect(result).toMatchObject({ kind: 'relayed', fault: undefined });
    expect(client.written.join('')).toBe(answer);
  });

  it('reads the answer of a client that left to its end without writing it, for its usage', async () => {
    const client = createRecordingSink();
    const result = await streamThroughJsonAnswer(
      options(Readable.from(chunksOf(answer, 16 * 1024)), client, { writeToClient: false }),
    );
    expect(result).toMatchObject({ kind: 'relayed', fault: undefined, firstByteAt: undefined });
    expect(client.written).toEqual([]);
    expect(result.kind === 'relayed' && result.tailText.includes('"prompt_tokens":7')).toBe(true);
  });

  it('refuses, before any byte, an answer whose first window fails the check', async () => {
    const client = createRecordingSink();
    const result = await streamThroughJsonAnswer(
      options(Readable.from(chunksOf(`<html>${answer}`, 16 * 1024)), client),
    );
    expect(result).toEqual({ kind: 'refused', fault: 'not-an-object' });
    expect(client.events).toEqual([]);
  });

  it('hands a body that ends within the first window back whole', async () => {
    const client = createRecordingSink();
    expect(await streamThroughJsonAnswer(options(Readable.from([Buffer.from('{"data":[]}')]), client))).toEqual({
      kind: 'whole',
      text: '{"data":[]}',
    });
    expect(client.events).toEqual([]);
  });

  it('cuts the client when the answer grows past the cap or ends cut off after its head', async () => {
    const tooLarge = createRecordingSink();
    expect(
      await streamThroughJsonAnswer(
        options(Readable.from(chunksOf(answer, 16 * 1024)), tooLarge, { maximumBytes: 100 * 1024 }),
      ),
    ).toMatchObject({ kind: 'relayed', fault: 'too-large' });
    expect(tooLarge.events.at(-1)).toBe('abort');
    const cutOff = createRecordingSink();
    expect(
      await streamThroughJsonAnswer(options(Readable.from(chunksOf(answer.slice(0, 150 * 1024), 16 * 1024)), cutOff)),
    ).toMatchObject({ kind: 'relayed', fault: 'cut-off' });
    expect(cutOff.events.at(-1)).toBe('abort');
  });
});
