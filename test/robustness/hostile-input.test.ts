// Whatever a client sends, the gateway answers with an OpenAI-shaped error (never a 5xx of its own, never a
// crash) and keeps serving. Inputs are generated from a fixed seed so a failure is reproducible.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FormData } from 'undici';
import { startTestGateway, sendRawRequest, type TestGateway } from '../helpers/start-test-gateway.js';
import { startOpenAiSimulator, type OpenAiSimulator } from '../simulators/openai-simulator.js';

const jsonEndpoints = ['/v1/chat/completions', '/v1/completions', '/v1/embeddings', '/v1/images/generations'];
const multipartEndpoints = ['/v1/images/edits', '/v1/audio/transcriptions'];

/** Bodies that are wrong in every way a client can be wrong; each must be refused with a 4xx. */
const hostileJsonBodies: string[] = [
  '',
  'null',
  'true',
  '[]',
  '"a string"',
  '{',
  '{"model":',
  '{"model": "gpt-4o", "messages": [',
  '\u0000\u0001\u0002',
  '{"__proto__": {"polluted": true}, "model": "gpt-4o", "messages": [{"role": "user", "content": "x"}], "temperature": 9}',
  '{"constructor": {"prototype": {"polluted": true}}}',
  JSON.stringify({ model: 42, messages: 'hello' }),
  JSON.stringify({ model: '', messages: [] }),
  JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user' }] }),
  JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: [{ type: 'image_url' }] }] }),
  JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: [{ type: 'unknown-part' }] }] }),
  JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }], n: 1e308 }),
  JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }], max_tokens: -1 }),
  JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }], stop: ['a', 'b', 'c', 'd', 'e'] }),
  JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }], tools: [{ type: 'function' }] }),
  JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }], tool_choice: { type: 'function' } }),
  JSON.stringify({ model: 'text-embedding-3-small', input: [] }),
  JSON.stringify({ model: 'text-embedding-3-small', input: [[-1]] }),
  JSON.stringify({ model: 'dall-e-3', prompt: '' }),
  JSON.stringify({ model: 'dall-e-3', prompt: 'x', n: 'many' }),
  `{"model":"gpt-4o","messages":${'['.repeat(5000)}${']'.repeat(5000)}}`,
  `{"a":${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}}`,
];

function seededBytes(seed: number, length: number): Buffer {
  const bytes = Buffer.alloc(length);
  let state = seed;
  for (let index = 0; index < length; index++) {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    bytes[index] = state & 0xff;
  }
  return bytes;
}

describe('hostile input', () => {
  let gateway: TestGateway;
  let simulator: OpenAiSimulator;
  let apiKey: string;

  beforeAll(async () => {
    simulator = await startOpenAiSimulator({ apiKey: 'sk-upstream' });
    gateway = await startTestGateway({ config: { bodyLimitBytes: 256 * 1024, uploadLimitBytes: 64 * 1024 } });
    await gateway.createChannel({ baseUrl: simulator.url, secret: 'sk-upstream', models: ['gpt-4o', 'text-embedding-3-small', 'dall-e-3', 'dall-e-2', 'whisper-1'] });
    apiKey = (await gateway.createKey()).secret;
  });

  afterAll(async () => {
    await gateway?.close();
    await simulator?.close();
  });

  function expectOpenAiClientError(response: { status: number; text: string }, context: string): void {
    expect(response.status, context).toBeGreaterThanOrEqual(400);
    expect(response.status, context).toBeLessThan(500);
    const body = JSON.parse(response.text) as { error?: Record<string, unknown> };
    expect(body.error, context).toMatchObject({ message: expect.any(String), type: expect.any(String) });
    expect(body.error && 'param' in body.error && 'code' in body.error, context).toBe(true);
  }

  it('refuses every malformed JSON body on every JSON endpoint with a 4xx and sends nothing upstream', async () => {
    simulator.reset();
    for (const path of jsonEndpoints) {
      for (const body of hostileJsonBodies) {
        const response = await sendRawRequest(gateway, { path, apiKey, headers: { 'content-type': 'application/json' }, body });
        expectOpenAiClientError(response, `${path} ${body.slice(0, 60)}`);
      }
    }
    expect(simulator.requests).toHaveLength(0);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses random bytes under every content type', async () => {
    for (let seed = 1; seed <= 20; seed++) {
      for (const contentType of ['application/json', 'multipart/form-data; boundary=xyz', 'application/octet-stream', 'text/plain']) {
        const path = [...jsonEndpoints, ...multipartEndpoints][seed % 6] ?? '/v1/chat/completions';
        const response = await sendRawRequest(gateway, { path, apiKey, headers: { 'content-type': contentType }, body: seededBytes(seed, 64 + seed * 97) });
        expectOpenAiClientError(response, `${path} ${contentType} seed ${seed}`);
      }
    }
  });

  it('refuses multipart forms with missing files, oversized files and non-numeric fields', async () => {
    const missingFile = new FormData();
    missingFile.append('model', 'whisper-1');
    expectOpenAiClientError(await sendRawRequest(gateway, { path: '/v1/audio/transcriptions', apiKey, body: missingFile }), 'missing file');

    const oversized = new FormData();
    oversized.append('model', 'whisper-1');
    oversized.append('file', new Blob([randomBytes(128 * 1024)]), 'big.wav');
    const oversizedResponse = await sendRawRequest(gateway, { path: '/v1/audio/transcriptions', apiKey, body: oversized });
    expect(oversizedResponse.status).toBe(413);

    const badCount = new FormData();
    badCount.append('model', 'dall-e-2');
    badCount.append('prompt', 'x');
    badCount.append('n', 'lots');
    badCount.append('image', new Blob([Buffer.from('not really a png')], { type: 'image/png' }), 'a.png');
    expectOpenAiClientError(await sendRawRequest(gateway, { path: '/v1/images/edits', apiKey, body: badCount }), 'non-numeric n');
  });

  it('refuses a JSON body over the limit with 413 before reading it all', async () => {
    const response = await sendRawRequest(gateway, { path: '/v1/chat/completions', apiKey, headers: { 'content-type': 'application/json' }, body: Buffer.alloc(300 * 1024, 'a') });
    expect(response.status).toBe(413);
  });

  it('keeps serving real requests after all of that', async () => {
    const response = await sendRawRequest(gateway, {
      path: '/v1/chat/completions',
      apiKey,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'still alive?' }] }),
    });
    expect(response.status).toBe(200);
    expect((response.json() as { choices: Array<{ message: { content: string } }> }).choices[0]?.message.content).toBe('Echo: still alive?');
  });
});
