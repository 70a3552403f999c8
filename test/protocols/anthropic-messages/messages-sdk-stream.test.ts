import Anthropic from '@anthropic-ai/sdk';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CanonicalStreamPart } from '../../../src/core/canonical/canonical-stream-part.js';
import { foldStreamParts } from '../../../src/core/canonical/fold-stream-parts.js';
import { createMessagesAnswerCodec } from '../../../src/protocols/anthropic-messages/messages-answer-codec.js';
import { createReasoningSealer } from '../../../src/protocols/shared/reasoning-sealer.js';
import { createSecretBox } from '../../../src/accounts/secret-box.js';

const sealer = createReasoningSealer(createSecretBox('messages-sdk-test'));
const usage = {
  inputTokens: 40,
  cacheReadInputTokens: 10,
  cacheWriteInputTokens: 5,
  outputTokens: 9,
  reasoningTokens: 3,
};

/** Canonical answers the loopback server writes, by the name the request's user text gives. */
const scriptedAnswers: Record<string, CanonicalStreamPart[]> = {
  text: [
    { type: 'usage', usage: { ...usage, outputTokens: 1 } },
    { type: 'text-start', blockIndex: 0 },
    { type: 'text-delta', blockIndex: 0, text: 'Hello, ' },
    { type: 'text-delta', blockIndex: 0, text: 'world' },
    { type: 'text-end', blockIndex: 0 },
    { type: 'finish', finish: { reason: 'stop', rawReason: 'end_turn' } },
    { type: 'usage', usage },
  ],
  'thinking and tools': [
    { type: 'reasoning-start', blockIndex: 0 },
    { type: 'reasoning-delta', blockIndex: 0, text: 'Two cities.' },
    { type: 'reasoning-end', blockIndex: 0, artefact: { producer: 'anthropic', signature: 'vendor-sig' } },
    { type: 'tool-call-start', blockIndex: 1, callId: 'toolu_paris', name: 'get_weather' },
    { type: 'tool-call-delta', blockIndex: 1, argumentsDelta: '{"city":' },
    { type: 'tool-call-delta', blockIndex: 1, argumentsDelta: '"Paris"}' },
    { type: 'tool-call-end', blockIndex: 1 },
    { type: 'tool-call-start', blockIndex: 2, callId: 'functions.get_weather:1', name: 'get_weather' },
    { type: 'tool-call-delta', blockIndex: 2, argumentsDelta: '{"city":"Rome"}' },
    { type: 'tool-call-end', blockIndex: 2 },
    { type: 'finish', finish: { reason: 'tool-calls', rawReason: 'tool_use' } },
    { type: 'usage', usage },
  ],
  'redacted thinking': [
    { type: 'reasoning-start', blockIndex: 0 },
    { type: 'reasoning-end', blockIndex: 0, artefact: { producer: 'anthropic', redactedData: 'opaque' } },
    { type: 'text-start', blockIndex: 1 },
    { type: 'text-delta', blockIndex: 1, text: 'Done' },
    { type: 'text-end', blockIndex: 1 },
    { type: 'finish', finish: { reason: 'stop', rawReason: 'stop_sequence', stopSequence: 'END' } },
    { type: 'usage', usage },
  ],
  'cut by length': [
    { type: 'text-start', blockIndex: 0 },
    { type: 'text-delta', blockIndex: 0, text: 'Once upon' },
    { type: 'text-end', blockIndex: 0 },
    { type: 'finish', finish: { reason: 'length', rawReason: 'max_tokens' } },
    { type: 'usage', usage },
  ],
};

/** A stand-in for the gateway's /v1/messages: the user's text names a scripted answer, written with the codec. */
function startScriptedServer(): Promise<Server> {
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      const payload = JSON.parse(body) as { model: string; messages: Array<{ content: string }>; stream?: boolean };
      const script = payload.messages[0]!.content;
      const parts = scriptedAnswers[script]!;
      const codec = createMessagesAnswerCodec({
        messageId: 'msg_scripted',
        model: payload.model,
        sealArtefact: sealer.seal,
      });
      if (script === 'fails') {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        const encoder = codec.createStreamEncoder();
        for (const frame of [
          ...encoder.start(),
          ...encoder.push({ type: 'text-start', blockIndex: 0 }),
          ...encoder.fail({ code: 'service_unavailable', message: 'vendor overloaded' }),
        ]) {
          response.write(frame);
        }
        response.end();
        return;
      }
      if (!payload.stream) {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(codec.encodeAnswer(foldStreamParts(parts)));
        return;
      }
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const encoder = codec.createStreamEncoder();
      for (const frame of [...encoder.start(), ...parts.flatMap((part) => encoder.push(part)), ...encoder.end()])
        response.write(frame);
      response.end();
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** The message with each sealed artefact opened: sealing is randomised, what it carries is not. */
function withOpenedArtefacts(message: Anthropic.Message): Record<string, unknown> {
  const plain = JSON.parse(JSON.stringify(message)) as Anthropic.Message;
  const content = plain.content.map((block) => {
    if (block.type === 'thinking') return { ...block, signature: sealer.unseal(block.signature) };
    if (block.type === 'redacted_thinking') return { ...block, data: sealer.unseal(block.data) };
    return block;
  });
  return { ...plain, content };
}

describe('the Messages codec, read by the official @anthropic-ai/sdk', () => {
  let server: Server;
  let client: Anthropic;

  beforeAll(async () => {
    server = await startScriptedServer();
    client = new Anthropic({
      apiKey: 'sk-test',
      baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      maxRetries: 0,
    });
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  const scripts = Object.keys(scriptedAnswers);
  const ask = (script: string) => ({
    model: 'claude-public',
    max_tokens: 1000,
    messages: [{ role: 'user' as const, content: script }],
  });

  it.each(scripts)('messages.stream().finalMessage() for %s equals messages.create()', async (script) => {
    const streamed = await client.messages.stream(ask(script)).finalMessage();
    const created = await client.messages.create(ask(script));
    expect(withOpenedArtefacts(streamed)).toEqual(expect.objectContaining(withOpenedArtefacts(created)));
    expect(created.usage).toEqual({
      input_tokens: 25,
      cache_creation_input_tokens: 5,
      cache_read_input_tokens: 10,
      output_tokens: 9,
    });
  });

  it('shows text, thinking with a sealed signature and tool_use input the way clients read them', async () => {
    const text = await client.messages.stream(ask('text')).finalMessage();
    expect(text.content).toEqual([{ type: 'text', text: 'Hello, world' }]);
    expect(text.stop_reason).toBe('end_turn');

    const tools = await client.messages.stream(ask('thinking and tools')).finalMessage();
    expect(tools.stop_reason).toBe('tool_use');
    const [thinking, paris, rome] = tools.content;
    expect(thinking).toMatchObject({ type: 'thinking', thinking: 'Two cities.' });
    expect(sealer.unseal((thinking as Anthropic.ThinkingBlock).signature)).toEqual({
      artefact: { producer: 'anthropic', signature: 'vendor-sig' },
    });
    expect(paris).toMatchObject({ type: 'tool_use', id: 'toolu_paris', name: 'get_weather', input: { city: 'Paris' } });
    expect(rome).toMatchObject({ type: 'tool_use', name: 'get_weather', input: { city: 'Rome' } });
    expect((rome as Anthropic.ToolUseBlock).id).toMatch(/^[a-zA-Z0-9_-]+$/);

    const redacted = await client.messages.stream(ask('redacted thinking')).finalMessage();
    expect(redacted.content[0]).toMatchObject({ type: 'redacted_thinking' });
    expect(redacted).toMatchObject({ stop_reason: 'stop_sequence', stop_sequence: 'END' });
    expect((await client.messages.create(ask('cut by length'))).stop_reason).toBe('max_tokens');
  });

  it('raises the SDK error of an error event sent mid-stream', async () => {
    const failing = client.messages.stream(ask('fails')).finalMessage();
    await expect(failing).rejects.toMatchObject({
      error: { type: 'error', error: { type: 'overloaded_error', message: 'vendor overloaded' } },
    });
  });
});
