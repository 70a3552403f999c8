// The Responses ClientAnswerCodec: the frames dispatch writes for a canonical answer, read by the official SDK, the
// hook that hands the route the final Response to store, and the `response.failed` ending of a cut-off stream.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { foldStreamParts } from '../../../src/core/canonical/fold-stream-parts.js';
import type { CanonicalStreamPart } from '../../../src/core/canonical/canonical-stream-part.js';
import { responsesAnswerCodec } from '../../../src/protocols/openai-responses/responses-answer-codec.js';
import type { ResponsesResponse } from '../../../src/protocols/openai-responses/responses-wire-types.js';
import { deterministicContext, scriptedAnswers } from './scripted-answers.js';

/** The `data:` payloads of frames, checking each frame's `event:` line names its type. */
function payloadsOf(frames: string[]): Array<Record<string, unknown>> {
  return frames.map((frame) => {
    expect(frame.endsWith('\n\n')).toBe(true);
    const [eventLine, dataLine] = frame.trimEnd().split('\n');
    const data = JSON.parse((dataLine ?? '').slice('data: '.length)) as Record<string, unknown>;
    expect(eventLine).toBe(`event: ${String(data.type)}`);
    return data;
  });
}

/** Writes one scripted answer through the codec: whole when `stream` is false, else frame by frame, failed after `failAfter` parts. */
function startCodecServer(): Promise<Server> {
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      const payload = JSON.parse(body) as {
        input: keyof typeof scriptedAnswers;
        stream?: boolean;
        metadata?: { failAfter?: string };
      };
      const parts = scriptedAnswers[payload.input];
      const codec = responsesAnswerCodec(deterministicContext());
      if (!payload.stream) {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(codec.encodeAnswer(foldStreamParts(parts)));
        return;
      }
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const encoder = codec.createStreamEncoder();
      const failAfter = payload.metadata?.failAfter === undefined ? undefined : Number(payload.metadata.failAfter);
      const sent = failAfter === undefined ? parts : parts.slice(0, failAfter);
      const frames = [...encoder.start(), ...sent.flatMap((part) => encoder.push(part))];
      frames.push(
        ...(failAfter === undefined
          ? encoder.end()
          : encoder.fail({ code: 'server_error', message: 'vendor went away' })),
      );
      response.end(frames.join(''));
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe('responsesAnswerCodec', () => {
  let server: Server;
  let client: OpenAI;

  beforeAll(async () => {
    server = await startCodecServer();
    client = new OpenAI({
      apiKey: 'sk-test',
      baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
      maxRetries: 0,
    });
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it.each(['text', 'function call', 'reasoning and text'] as const)(
    '%s: the SDK stream helper reads the same Response the JSON answer is',
    async (script) => {
      const streamed = await client.responses.stream({ model: 'gpt-test', input: script }).finalResponse();
      const plain = await client.responses.parse({ model: 'gpt-test', input: script });
      expect(streamed).toEqual(plain);
    },
  );

  it('ends a stream cut off after its first frame with response.failed, which the SDK helper does not take for a success', async () => {
    const stream = client.responses.stream({ model: 'gpt-test', input: 'text', metadata: { failAfter: '3' } });
    const outcome = await stream.finalResponse().then(
      (response) => response.status,
      () => 'rejected',
    );
    expect(outcome).not.toBe('completed');
  });

  it('gives the final Response to the hook once: JSON answer and the terminal stream event alike', () => {
    const parts: CanonicalStreamPart[] = scriptedAnswers.text;
    const seen: ResponsesResponse[] = [];
    const codec = responsesAnswerCodec(deterministicContext(), {
      onFinalResponse: (response) => void seen.push(response),
    });
    const json = JSON.parse(codec.encodeAnswer(foldStreamParts(parts))) as ResponsesResponse;
    const encoder = codec.createStreamEncoder();
    const events = payloadsOf([...encoder.start(), ...parts.flatMap((part) => encoder.push(part)), ...encoder.end()]);
    expect(seen).toHaveLength(2);
    expect(seen[0]).toEqual(json);
    expect(events.at(-1)).toMatchObject({ type: 'response.completed', response: seen[1] });
    expect(seen[1]?.status).toBe('completed');
  });

  it('fail() closes open items and emits exactly one terminal response.failed, sequence numbers still increasing, no [DONE]', () => {
    const seen: ResponsesResponse[] = [];
    const codec = responsesAnswerCodec(deterministicContext(), {
      onFinalResponse: (response) => void seen.push(response),
    });
    const encoder = codec.createStreamEncoder();
    const frames = [
      ...encoder.start(),
      ...encoder.push({ type: 'text-start', blockIndex: 0 }),
      ...encoder.push({ type: 'text-delta', blockIndex: 0, text: 'half an ans' }),
      ...encoder.fail({ code: 'rate_limit_exceeded', message: 'slow down' }),
    ];
    expect(frames.join('')).not.toContain('[DONE]');
    const events = payloadsOf(frames);
    expect(
      events.filter(
        (event) =>
          String(event.type).startsWith('response.') &&
          ['response.completed', 'response.incomplete', 'response.failed'].includes(String(event.type)),
      ),
    ).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({
      type: 'response.failed',
      response: { status: 'failed', error: { code: 'rate_limit_exceeded', message: 'slow down' } },
    });
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index));
    expect(seen.map((response) => response.status)).toEqual(['failed']);
    expect(encoder.end()).toEqual([]);
  });
});

describe('the Responses codec before the last bytes', () => {
  it('waits for what the final-response hook is doing (the route stores the response there)', async () => {
    let release: () => void = () => undefined;
    const stored = new Promise<void>((resolve) => (release = resolve));
    const codec = responsesAnswerCodec(deterministicContext(), { onFinalResponse: () => stored });
    codec.encodeAnswer(foldStreamParts(scriptedAnswers.text));
    let waited = false;
    const waiting = codec.beforeLastBytes?.().then(() => (waited = true));
    await Promise.resolve();
    expect(waited).toBe(false);
    release();
    await waiting;
    expect(waited).toBe(true);
  });
});
