import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createWav } from '../helpers/create-wav.js';
import { startOpenAiSimulator, type OpenAiSimulator } from './openai-simulator.js';

const apiKey = 'sk-simulator-test';
let simulator: OpenAiSimulator;

beforeAll(async () => {
  simulator = await startOpenAiSimulator({ apiKey });
});
afterAll(async () => {
  await simulator.close();
});
beforeEach(() => simulator.reset());

function postJson(path: string, body: unknown, key = apiKey): Promise<Response> {
  return fetch(`${simulator.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify(body),
  });
}

function postForm(path: string, form: FormData): Promise<Response> {
  return fetch(`${simulator.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}` },
    body: form,
  });
}

/** The JSON body, loosely typed for assertions. */
async function readJson(response: Response): Promise<any> {
  return response.json();
}

/** The JSON payloads of an event stream, with `[DONE]` kept as a string. */
function parseEvents(text: string): unknown[] {
  return text
    .split('\n\n')
    .filter((event) => event.startsWith('data: '))
    .map((event) => event.slice('data: '.length))
    .map((data) => (data === '[DONE]' ? data : JSON.parse(data)));
}

describe('openai simulator', () => {
  it("refuses, like OpenAI, an output cap above a known model's and a reasoning effort for a model that does not reason", async () => {
    const messages = [{ role: 'user', content: 'hi' }];
    const tooLong = await postJson('/chat/completions', { model: 'gpt-4o', messages, max_completion_tokens: 32_000 });
    expect(tooLong.status).toBe(400);
    expect((await readJson(tooLong)).error).toMatchObject({ param: 'max_completion_tokens', code: 'invalid_value' });
    const effort = await postJson('/chat/completions', { model: 'gpt-4o', messages, reasoning_effort: 'high' });
    expect(effort.status).toBe(400);
    expect((await readJson(effort)).error).toMatchObject({ param: 'reasoning_effort', code: 'unsupported_parameter' });
    const fits = await postJson('/chat/completions', { model: 'o3', messages, reasoning_effort: 'high' });
    expect(fits.status).toBe(200);
    const atCap = await postJson('/chat/completions', { model: 'gpt-4o', messages, max_completion_tokens: 16_384 });
    expect(atCap.status).toBe(200);
  });

  it('answers a chat completion with the echo text and word-counted usage', async () => {
    const response = await postJson('/chat/completions', {
      model: 'gpt-4o',
      messages: [
        { role: 'system', content: 'be brief' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'hello there' },
            { type: 'image_url', image_url: { url: 'data:,' } },
          ],
        },
      ],
    });
    const body = await readJson(response);
    expect(response.status).toBe(200);
    expect(body).toMatchObject({
      object: 'chat.completion',
      model: 'gpt-4o',
      choices: [{ index: 0, finish_reason: 'stop', logprobs: null }],
    });
    expect(body.id).toMatch(/^chatcmpl-/);
    expect(body.choices[0].message).toMatchObject({ role: 'assistant', content: 'Echo: hello there', refusal: null });
    expect(body.usage).toMatchObject({
      prompt_tokens: 5,
      completion_tokens: 3,
      total_tokens: 8,
      prompt_tokens_details: { cached_tokens: 0 },
    });
  });

  it('streams word chunks, a usage chunk and [DONE] when include_usage is set', async () => {
    const response = await postJson('/chat/completions', {
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'one two three' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const events = parseEvents(await response.text()) as Array<Record<string, any>>;
    expect(events.at(-1)).toBe('[DONE]');
    const chunks = events.slice(0, -1);
    expect(new Set(chunks.map((chunk) => chunk.id)).size).toBe(1);
    expect(chunks[0]?.choices[0].delta).toEqual({ role: 'assistant', content: '', refusal: null });
    expect(chunks.slice(0, -1).every((chunk) => chunk.usage === null)).toBe(true);
    const text = chunks.flatMap((chunk) => chunk.choices.map((choice: any) => choice.delta.content ?? '')).join('');
    expect(text).toBe('Echo: one two three');
    expect(chunks.at(-2)?.choices[0]).toMatchObject({ delta: {}, finish_reason: 'stop' });
    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 },
    });
  });

  it('streams tool calls with arguments split over several chunks', async () => {
    const response = await postJson('/chat/completions', {
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'weather in Paris' }],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: {} } }],
      stream: true,
    });
    const chunks = (parseEvents(await response.text()).slice(0, -1) as Array<Record<string, any>>).map(
      (chunk) => chunk.choices[0],
    );
    const callDeltas = chunks.flatMap((choice) => choice.delta.tool_calls ?? []);
    expect(callDeltas[0]).toMatchObject({
      index: 0,
      type: 'function',
      function: { name: 'get_weather', arguments: '' },
    });
    expect(callDeltas.length).toBeGreaterThanOrEqual(4);
    const argumentsText = callDeltas.map((delta: any) => delta.function.arguments).join('');
    expect(JSON.parse(argumentsText)).toEqual({ query: 'weather in Paris' });
    expect(chunks.at(-1)?.finish_reason).toBe('tool_calls');
  });

  it('rejects invalid chat requests with 400 and the faulty param', async () => {
    const cases: Array<[unknown, string]> = [
      [{ messages: [{ role: 'user', content: 'x' }] }, 'model'],
      [{ model: 'm', messages: [] }, 'messages'],
      [{ model: 'm', messages: [{ role: 'robot', content: 'x' }] }, 'messages[0].role'],
      [{ model: 'm', messages: [{ role: 'user', content: 'x' }], temperature: 3 }, 'temperature'],
      [
        { model: 'm', messages: [{ role: 'user', content: 'x' }], stream_options: { include_usage: true } },
        'stream_options',
      ],
    ];
    for (const [body, param] of cases) {
      const response = await postJson('/chat/completions', body);
      expect(response.status).toBe(400);
      expect((await readJson(response)).error).toMatchObject({ type: 'invalid_request_error', param });
    }
  });

  it('answers sim-error models with the status and an OpenAI error body on any endpoint', async () => {
    const response = await postJson('/embeddings', { model: 'sim-error-429', input: 'x' });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('1');
    expect((await readJson(response)).error).toMatchObject({
      type: 'requests',
      param: null,
      code: 'rate_limit_exceeded',
    });
  });

  it('sets Retry-After as a sim-error-<status>-retry-after-<seconds> model asks', async () => {
    const rateLimited = await postJson('/chat/completions', {
      model: 'sim-error-429-retry-after-30',
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(rateLimited.status).toBe(429);
    expect(rateLimited.headers.get('retry-after')).toBe('30');
    expect((await readJson(rateLimited)).error).toMatchObject({ code: 'rate_limit_exceeded' });
    const unavailable = await postJson('/chat/completions', {
      model: 'sim-error-503-retry-after-5',
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(unavailable.status).toBe(503);
    expect(unavailable.headers.get('retry-after')).toBe('5');
  });

  it('returns base64 embeddings that decode to exactly the float ones', async () => {
    const request = { model: 'text-embedding-3-small', input: ['alpha', 'beta'], dimensions: 16 };
    const floats = await readJson(await postJson('/embeddings', { ...request, encoding_format: 'float' }));
    const encoded = await readJson(await postJson('/embeddings', { ...request, encoding_format: 'base64' }));
    const bytes = Buffer.from(encoded.data[1].embedding, 'base64');
    const decoded = Array.from(new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4));
    expect(floats.data[1].embedding).toHaveLength(16);
    expect(decoded).toEqual(floats.data[1].embedding);
    expect(floats.data[0].embedding).not.toEqual(floats.data[1].embedding);
  });

  it('reads the duration of an uploaded WAV for transcriptions', async () => {
    const form = new FormData();
    form.append('file', new Blob([createWav(2.5)], { type: 'audio/wav' }), 'speech.wav');
    form.append('model', 'whisper-1');
    form.append('response_format', 'verbose_json');
    const body = await readJson(await postForm('/audio/transcriptions', form));
    expect(body).toMatchObject({
      duration: 2.5,
      text: 'Simulated transcript of speech.wav',
      segments: [{ start: 0, end: 2.5 }],
    });
    form.set('response_format', 'srt');
    const srt = await (await postForm('/audio/transcriptions', form)).text();
    expect(srt).toBe('1\n00:00:00,000 --> 00:00:02,500\nSimulated transcript of speech.wav\n\n');
  });

  it('records image edit uploads as file descriptions', async () => {
    const form = new FormData();
    form.append('image[]', new Blob([Buffer.alloc(10)], { type: 'image/png' }), 'a.png');
    form.append('prompt', 'add a hat');
    form.append('model', 'gpt-image-1');
    form.append('response_format', 'b64_json');
    const body = await readJson(await postForm('/images/edits', form));
    expect(body.data[0].b64_json).toMatch(/^iVBORw0KGgo/);
    expect(body.usage).toBeDefined();
    expect(simulator.requests[0]?.body).toMatchObject({
      'image[]': { filename: 'a.png', contentType: 'image/png', size: 10 },
      prompt: 'add a hat',
    });
  });

  it('rejects a wrong key with 401 invalid_api_key and still records the request', async () => {
    const response = await postJson(
      '/chat/completions',
      { model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] },
      'sk-wrong',
    );
    expect(response.status).toBe(401);
    expect((await readJson(response)).error.code).toBe('invalid_api_key');
    expect(simulator.requests).toHaveLength(1);
    expect(simulator.requests[0]?.headers.authorization).toBe('Bearer sk-wrong');
  });

  it('counts a client abort of a hanging request and breaks sim-broken-stream streams', async () => {
    const controller = new AbortController();
    const hanging = fetch(`${simulator.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
      body: JSON.stringify({ model: 'sim-hang', messages: [{ role: 'user', content: 'x' }] }),
      signal: controller.signal,
    });
    const stillPending = new Promise((resolve) => setTimeout(() => resolve('pending'), 100));
    await expect(Promise.race([hanging, stillPending])).resolves.toBe('pending');
    controller.abort();
    await expect(hanging).rejects.toThrow();
    await expect.poll(() => simulator.abortedRequestCount()).toBe(1);

    const broken = await postJson('/chat/completions', {
      model: 'sim-broken-stream',
      messages: [{ role: 'user', content: 'a b c d' }],
      stream: true,
    });
    expect(broken.status).toBe(200);
    await expect(broken.text()).rejects.toThrow();
    expect(simulator.abortedRequestCount()).toBe(1);
  });
});
