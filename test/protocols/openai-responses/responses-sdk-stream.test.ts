import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { foldStreamParts } from '../../../src/core/canonical/fold-stream-parts.js';
import { encodeResponse } from '../../../src/protocols/openai-responses/encode-response.js';
import { formatResponsesEvent } from '../../../src/protocols/openai-responses/format-responses-event.js';
import { createResponsesStreamEncoder } from '../../../src/protocols/openai-responses/responses-stream-encoder.js';
import { deterministicContext, plainEcho, scriptedAnswers } from './scripted-answers.js';

type ScriptName = keyof typeof scriptedAnswers;

/**
 * A stand-in for the gateway's /v1/responses: the request's `input` names a scripted answer, which is written with
 * the stream encoder (SSE, one write per event) or the non-streamed encoder.
 */
function startScriptedServer(): Promise<Server> {
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      const payload = JSON.parse(body) as { model: string; input: ScriptName; stream?: boolean };
      const parts = scriptedAnswers[payload.input];
      const context = deterministicContext(plainEcho(payload.model));
      if (!payload.stream) {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(encodeResponse(foldStreamParts(parts), context)));
        return;
      }
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const encoder = createResponsesStreamEncoder(context);
      for (const event of [...encoder.start(), ...parts.flatMap((part) => encoder.push(part)), ...encoder.end()]) {
        response.write(formatResponsesEvent(event));
      }
      response.end();
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe('the Responses stream encoder, read by the official openai SDK', () => {
  let server: Server;
  let client: OpenAI;

  beforeAll(async () => {
    server = await startScriptedServer();
    client = new OpenAI({
      apiKey: 'sk-test',
      baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
      maxRetries: 0,
    });
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  const scripts = Object.keys(scriptedAnswers) as ScriptName[];

  it.each(scripts)('responses.stream().finalResponse() for %s equals the non-streamed response', async (script) => {
    const streamed = await client.responses.stream({ model: 'gpt-test', input: script }).finalResponse();
    const nonStreamed = await client.responses.parse({ model: 'gpt-test', input: script });
    expect(streamed).toEqual(nonStreamed);
    expect(streamed).toMatchObject(encodeResponse(foldStreamParts(scriptedAnswers[script]), deterministicContext()));
  });

  it.each(scripts)(
    'responses.create({ stream: true }) for %s ends with one terminal event carrying the non-streamed response',
    async (script) => {
      const stream = await client.responses.create({ model: 'gpt-test', input: script, stream: true });
      const events = [];
      for await (const event of stream) events.push(event);
      expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index));
      const terminal = events.at(-1)!;
      expect(['response.completed', 'response.incomplete']).toContain(terminal.type);
      expect(
        events.filter(
          (event) =>
            event.type.startsWith('response.') &&
            'response' in event &&
            event.type !== 'response.created' &&
            event.type !== 'response.in_progress',
        ),
      ).toHaveLength(1);
      const nonStreamed = await client.responses.create({ model: 'gpt-test', input: script });
      expect('response' in terminal && terminal.response).toEqual({ ...nonStreamed, output_text: undefined });
    },
  );

  it('shows the text and the function call the way clients read them', async () => {
    const text = await client.responses.stream({ model: 'gpt-test', input: 'text' }).finalResponse();
    expect(text.output_text).toBe('Hello, world');
    expect(text.status).toBe('completed');
    const call = await client.responses.stream({ model: 'gpt-test', input: 'function call' }).finalResponse();
    expect(call.output).toMatchObject([
      {
        type: 'function_call',
        id: 'fc_1',
        call_id: 'call_weather',
        name: 'get_weather',
        arguments: '{"city":"Paris"}',
      },
    ]);
    const cut = await client.responses.stream({ model: 'gpt-test', input: 'max-tokens cut-off' }).finalResponse();
    expect(cut).toMatchObject({
      status: 'incomplete',
      incomplete_details: { reason: 'max_output_tokens' },
      output_text: 'Once upon a',
    });
    const reasoning = await client.responses.stream({ model: 'gpt-test', input: 'reasoning and text' }).finalResponse();
    expect(reasoning.output.map((item) => item.type)).toEqual(['reasoning', 'message']);
    expect(reasoning.output_text).toBe('Hi there!');
  });
});
