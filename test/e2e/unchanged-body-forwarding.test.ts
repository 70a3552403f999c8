// A JSON request that reaches an OpenAI-wire vendor unchanged is forwarded as the client's own bytes (no re-encoding);
// whenever the gateway changes anything (the model name, the usage option of a stream, a dropped opt-in field) or the
// text could be read two ways (a key given twice), the vendor gets the gateway's encoding of what it validated.
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sendRawRequest, startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';

const channelSecret = 'sk-upstream-unchanged-body';
const chatAnswer = JSON.stringify({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1,
  model: 'gpt-4o',
  choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 },
});
const embeddingsAnswer = JSON.stringify({
  object: 'list',
  data: [
    { object: 'embedding', index: 0, embedding: [0.1, 0.2] },
    { object: 'embedding', index: 1, embedding: [0.3, 0.4] },
  ],
  model: 'text-embedding-3-small',
  usage: { prompt_tokens: 2, total_tokens: 2 },
});
const streamAnswer = [
  'data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":"stop"}]}\n\n',
  'data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[],"usage":{"prompt_tokens":5,"completion_tokens":1,"total_tokens":6}}\n\n',
  'data: [DONE]\n\n',
].join('');

let upstream: Server;
let upstreamUrl: string;
const receivedBodies: string[] = [];
let gateway: TestGateway;
let clientKey: string;

beforeAll(async () => {
  upstream = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      receivedBodies.push(text);
      const streamed = (JSON.parse(text) as { stream?: boolean }).stream === true;
      response.writeHead(200, { 'content-type': streamed ? 'text/event-stream' : 'application/json' });
      response.end(streamed ? streamAnswer : request.url?.endsWith('/embeddings') ? embeddingsAnswer : chatAnswer);
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`;
  gateway = await startTestGateway();
  await gateway.createChannel({
    baseUrl: upstreamUrl,
    secret: channelSecret,
    models: ['gpt-4o', 'text-embedding-3-small'],
    refreshRouting: false,
  });
  await gateway.createChannel({
    baseUrl: upstreamUrl,
    secret: channelSecret,
    models: ['public-name'],
    modelMapping: { 'public-name': 'vendor-name' },
    refreshRouting: false,
  });
  await gateway.createChannel({
    baseUrl: upstreamUrl,
    secret: channelSecret,
    models: ['gpt-4o-opted-in'],
    settings: { forwardStoreAndMetadata: 'on' },
  });
  clientKey = (await gateway.createKey()).secret;
});

afterAll(async () => {
  await gateway?.close();
  await new Promise((resolve) => upstream?.close(resolve));
});

beforeEach(() => {
  receivedBodies.length = 0;
});

async function postText(path: string, text: string) {
  const response = await sendRawRequest(gateway, {
    path,
    apiKey: clientKey,
    headers: { 'content-type': 'application/json' },
    body: text,
  });
  expect(response.status, response.text).toBe(200);
  expect(receivedBodies).toHaveLength(1);
  return receivedBodies[0] ?? '';
}

describe('unchanged bodies', () => {
  it('forwards a chat body byte for byte: spacing, key order and escapes as the client wrote them', async () => {
    const text =
      '{ "messages" : [ {"content":"caf\\u00e9, \\"quoted\\", [brackets] {braces}", "role":"user"} ],\n  "model":"gpt-4o", "max_tokens": 16 }';
    expect(await postText('/v1/chat/completions', text)).toBe(text);
  });

  it('forwards a stream that already asks for usage byte for byte', async () => {
    const text =
      '{"model":"gpt-4o","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"hi"}]}';
    expect(await postText('/v1/chat/completions', text)).toBe(text);
  });

  it("forwards a stream's bytes with the request for usage written in front", async () => {
    const text = '{ "model":"gpt-4o", "stream":true, "messages":[{"role":"user","content":"caf\\u00e9"}] }';
    expect(await postText('/v1/chat/completions', text)).toBe(
      `{"stream_options":{"include_usage":true},${text.slice(1)}`,
    );
  });

  it('forwards an embeddings body byte for byte', async () => {
    const text = '{"input": ["one", "two"],"model": "text-embedding-3-small"}';
    expect(await postText('/v1/embeddings', text)).toBe(text);
  });
});

describe('bodies the gateway changes or could read two ways', () => {
  it('re-encodes a body whose model is renamed for the channel', async () => {
    const forwarded = JSON.parse(
      await postText('/v1/chat/completions', '{"model":"public-name","messages":[{"role":"user","content":"hi"}]}'),
    ) as Record<string, unknown>;
    expect(forwarded.model).toBe('vendor-name');
  });

  it('re-encodes a stream that says it wants no usage, asking for it', async () => {
    const forwarded = JSON.parse(
      await postText(
        '/v1/chat/completions',
        '{"model":"gpt-4o","stream":true,"stream_options":{"include_usage":false},"messages":[{"role":"user","content":"hi"}]}',
      ),
    ) as Record<string, unknown>;
    expect(forwarded.stream_options).toEqual({ include_usage: true });
  });

  it('re-encodes a body with a key given twice, so the vendor sees the model the gateway routed and billed', async () => {
    const text = '{"model":"gpt-4o-mini","messages":[{"role":"user","content":"hi"}],"model":"gpt-4o"}';
    const forwarded = await postText('/v1/chat/completions', text);
    expect(forwarded).not.toBe(text);
    expect(forwarded.match(/"model"/g)).toHaveLength(1);
    expect((JSON.parse(forwarded) as Record<string, unknown>).model).toBe('gpt-4o');
  });

  it('re-encodes a body without the opt-in fields a channel does not take', async () => {
    const forwarded = JSON.parse(
      await postText(
        '/v1/chat/completions',
        '{"model":"gpt-4o","store":true,"messages":[{"role":"user","content":"hi"}]}',
      ),
    ) as Record<string, unknown>;
    expect(forwarded).not.toHaveProperty('store');
  });

  it('forwards the opt-in fields unchanged to a channel that takes them', async () => {
    const text =
      '{"model":"gpt-4o-opted-in","store":true,"metadata":{"team":"a"},"messages":[{"role":"user","content":"hi"}]}';
    expect(await postText('/v1/chat/completions', text)).toBe(text);
  });
});
