// POST /v1/audio/speech and POST /v1/moderations through the gateway with the official SDK, against the OpenAI-wire
// and Gemini simulators: audio bytes and SSE events relayed, Gemini's PCM wrapped as WAV, each request billed at the
// catalog's list prices from what the vendor reports (or, for audio bytes without usage, the documented estimate),
// and bad input refused with an OpenAI-shaped 400 that charges nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGeminiSimulator, type GeminiSimulator } from '../simulators/gemini-simulator.js';
import { simulatedPcmBytesPerCharacter } from '../simulators/openai-simulator-speech.js';
import { geminiSimulatedPcmBytesPerCharacter } from '../simulators/gemini-simulator-speech.js';
import {
  createUnitPrice,
  settleEverything,
  startBillingTestGateway,
  type BillingTestGateway,
} from '../billing/start-billing-test-gateway.js';

const geminiSecret = 'AIza-speech-gemini-upstream';
const startingBalance = 10_000_000;
/** 28 ASCII characters. */
const input = 'Hello world, this is a test.';
/** A model whose channel answers `sim-broken-stream`: half the audio bytes, or two SSE deltas, then a cut. */
const brokenModel = 'broken-tts';

let gateway: BillingTestGateway;
let gemini: GeminiSimulator;

beforeAll(async () => {
  gemini = await startGeminiSimulator({ apiKey: geminiSecret });
  gateway = await startBillingTestGateway({
    models: ['tts-1', 'tts-1-hd', 'gpt-4o-mini-tts', 'omni-moderation-latest', 'text-moderation-latest'],
    prices: [createUnitPrice(brokenModel)],
  });
  await gateway.createChannel({
    protocol: 'gemini',
    baseUrl: gemini.url,
    secret: geminiSecret,
    models: { 'gemini-2.5-flash-preview-tts': 'gemini-2.5-flash-preview-tts' },
  });
  await gateway.createChannel({
    protocol: 'openai',
    baseUrl: gateway.simulator.url,
    secret: 'upstream',
    models: { [brokenModel]: 'sim-broken-stream' },
  });
}, 30_000);

afterAll(async () => {
  await gateway?.close();
  await gemini?.close();
});

async function billedClient() {
  const user = await gateway.createUser();
  const key = await gateway.createKey(user);
  await gateway.topUp(user, startingBalance);
  return { user, client: gateway.client(key.secret), secret: key.secret };
}

async function usageLogsOf(userId: string) {
  await settleEverything([gateway.running], userId);
  return gateway.running.billing.store.listUsageLogs({ userId, limit: 10 });
}

async function postJson(secret: string, path: string, body: unknown): Promise<Response> {
  return fetch(`${gateway.baseURL}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** The `data:` payloads of an SSE body. */
function eventsOf(text: string): Array<{ type: string; audio?: string; usage?: Record<string, number> }> {
  return text
    .split('\n\n')
    .map((frame) => frame.split('\n').find((line) => line.startsWith('data: ')))
    .filter((line): line is string => line !== undefined)
    .map((line) => JSON.parse(line.slice('data: '.length)) as { type: string });
}

describe('POST /v1/audio/speech to an OpenAI-wire channel', () => {
  it('streams tts-1 audio bytes through as mp3 and bills its characters at $15 per million', async () => {
    const { user, client } = await billedClient();
    const response = await client.audio.speech.create({ model: 'tts-1', input, voice: 'alloy' });
    expect(response.headers.get('content-type')).toBe('audio/mpeg');
    const audio = Buffer.from(await response.arrayBuffer());
    // The simulator's one MPEG frame (417 bytes, sync word 0xFFFB) a character, relayed byte for byte.
    expect(audio.length).toBe(input.length * 417);
    expect([audio[0], audio[1]]).toEqual([0xff, 0xfb]);
    const logs = await usageLogsOf(user.id);
    expect(logs.map((log) => [log.endpoint, log.status, log.promptTokens, log.cost])).toEqual([
      ['audio.speech', 200, input.length, input.length * 15],
    ]);
  });

  it('answers wav with a RIFF header and the vendor Content-Type, forwarding the fields unchanged', async () => {
    const { client } = await billedClient();
    gateway.simulator.reset();
    const response = await client.audio.speech.create({
      model: 'gpt-4o-mini-tts',
      input,
      voice: { id: 'voice_1234' },
      response_format: 'wav',
      speed: 1.5,
      instructions: 'Speak calmly.',
    });
    expect(response.headers.get('content-type')).toBe('audio/wav');
    const wav = Buffer.from(await response.arrayBuffer());
    expect(wav.toString('ascii', 0, 4)).toBe('RIFF');
    expect(wav.readUInt32LE(40)).toBe(input.length * simulatedPcmBytesPerCharacter);
    expect(gateway.simulator.requests[0]).toMatchObject({
      path: '/v1/audio/speech',
      body: {
        model: 'gpt-4o-mini-tts',
        input,
        voice: { id: 'voice_1234' },
        response_format: 'wav',
        speed: 1.5,
        instructions: 'Speak calmly.',
      },
    });
  });

  it('relays speech.audio.delta and speech.audio.done events for stream_format sse, billed by the done event usage', async () => {
    const { user, client } = await billedClient();
    const response = await client.audio.speech
      .create({ model: 'gpt-4o-mini-tts', input, voice: 'coral', response_format: 'pcm', stream_format: 'sse' })
      .asResponse();
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = eventsOf(await response.text());
    const deltas = events.filter((event) => event.type === 'speech.audio.delta');
    const audio = Buffer.concat(deltas.map((event) => Buffer.from(event.audio ?? '', 'base64')));
    expect(audio.length).toBe(input.length * simulatedPcmBytesPerCharacter);
    const done = events.at(-1);
    // The simulator's usage: a token per 4 characters in, 2 audio tokens a character out.
    expect(done).toEqual({
      type: 'speech.audio.done',
      usage: { input_tokens: 7, output_tokens: 56, total_tokens: 63 },
    });
    expect(events.some((event) => JSON.stringify(event).includes('[DONE]'))).toBe(false);
    const logs = await usageLogsOf(user.id);
    // $0.60 per million text tokens in, $12 per million audio tokens out: 7 × 0.6 + 56 × 12 = 676.2, rounded up once.
    expect(logs.map((log) => [log.status, log.promptTokens, log.completionTokens, log.cost])).toEqual([
      [200, 7, 56, 677],
    ]);
  });

  it('bills gpt-4o-mini-tts audio bytes (no usage on the wire) by the estimate of its text and expected audio', async () => {
    const { user, client } = await billedClient();
    const response = await client.audio.speech.create({ model: 'gpt-4o-mini-tts', input, voice: 'coral' });
    expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(0);
    const logs = await usageLogsOf(user.id);
    // 28 bytes / 3 per token = 10 tokens in; 28 characters at 15 a second × 21 audio tokens a second = 40 out.
    expect(logs.map((log) => [log.status, log.promptTokens, log.completionTokens, log.cost])).toEqual([
      [200, 10, 40, 10 * 0.6 + 40 * 12],
    ]);
  });

  it('cuts the client and bills nothing when the vendor breaks mid-audio, and the gateway keeps serving', async () => {
    const { user, client } = await billedClient();
    const response = await client.audio.speech.create({
      model: brokenModel,
      input,
      voice: 'alloy',
      response_format: 'wav',
    });
    await expect(response.arrayBuffer()).rejects.toThrow();
    const logs = await usageLogsOf(user.id);
    expect(logs.map((log) => [log.status, log.cost])).toEqual([[502, 0]]);
    const next = await client.audio.speech.create({ model: 'tts-1', input: 'ok', voice: 'alloy' });
    expect((await next.arrayBuffer()).byteLength).toBe(2 * 417);
  });

  it('ends an SSE stream the vendor breaks mid-way with an error event, settles it, and keeps serving', async () => {
    const { user, client } = await billedClient();
    const longInput = 'x'.repeat(100);
    const response = await client.audio.speech
      .create({ model: brokenModel, input: longInput, voice: 'alloy', stream_format: 'sse' })
      .asResponse();
    const events = eventsOf(await response.text());
    expect(events.filter((event) => event.type === 'speech.audio.delta').length).toBe(2);
    expect(events.at(-1)).toMatchObject({ error: { type: expect.any(String) } });
    const logs = await usageLogsOf(user.id);
    expect(logs).toHaveLength(1);
    expect(gateway.running.billing.memory.user(user.id).held).toBe(0);
  });
});

describe('POST /v1/audio/speech to Gemini TTS', () => {
  it('answers a valid WAV whose data length matches the PCM, billed by usageMetadata', async () => {
    const { user, client } = await billedClient();
    gemini.reset();
    const response = await client.audio.speech.create({
      model: 'gemini-2.5-flash-preview-tts',
      input,
      voice: 'kore',
      response_format: 'wav',
    });
    expect(response.headers.get('content-type')).toBe('audio/wav');
    const wav = Buffer.from(await response.arrayBuffer());
    const pcmBytes = input.length * geminiSimulatedPcmBytesPerCharacter;
    expect(wav.toString('ascii', 0, 12)).toBe('RIFF' + wav.toString('ascii', 4, 8) + 'WAVE');
    expect(wav.readUInt32LE(4)).toBe(36 + pcmBytes);
    expect([wav.readUInt16LE(22), wav.readUInt32LE(24), wav.readUInt16LE(34)]).toEqual([1, 24_000, 16]);
    expect(wav.toString('ascii', 36, 40)).toBe('data');
    expect(wav.readUInt32LE(40)).toBe(pcmBytes);
    expect(wav.length).toBe(44 + pcmBytes);
    expect(gemini.requests[0]?.body).toMatchObject({
      generationConfig: {
        responseModalities: ['AUDIO'],
        speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: 'Kore' } } },
      },
    });
    const logs = await usageLogsOf(user.id);
    // 7 tokens in (28 / 4), 7 audio tokens out (0.28 s × 25): 7 × 0.5 + 7 × 10 = 73.5, rounded up once.
    expect(logs.map((log) => [log.status, log.promptTokens, log.completionTokens, log.cost])).toEqual([
      [200, 7, 7, 74],
    ]);
  });

  it('answers raw PCM for pcm, and speech events for sse', async () => {
    const { client } = await billedClient();
    const pcm = await client.audio.speech.create({
      model: 'gemini-2.5-flash-preview-tts',
      input,
      voice: 'Puck',
      response_format: 'pcm',
    });
    expect((await pcm.arrayBuffer()).byteLength).toBe(input.length * geminiSimulatedPcmBytesPerCharacter);
    const sse = await client.audio.speech
      .create({
        model: 'gemini-2.5-flash-preview-tts',
        input,
        voice: 'Puck',
        response_format: 'pcm',
        stream_format: 'sse',
      })
      .asResponse();
    const events = eventsOf(await sse.text());
    const audio = Buffer.concat(
      events
        .filter((event) => event.type === 'speech.audio.delta')
        .map((event) => Buffer.from(event.audio ?? '', 'base64')),
    );
    expect(audio.length).toBe(input.length * geminiSimulatedPcmBytesPerCharacter);
    expect(events.at(-1)).toEqual({
      type: 'speech.audio.done',
      usage: { input_tokens: 7, output_tokens: 7, total_tokens: 14 },
    });
  });

  it('refuses mp3 (the default) with a 400 naming wav and pcm, before Gemini is called, charging nothing', async () => {
    const { user, secret } = await billedClient();
    gemini.reset();
    const response = await postJson(secret, '/audio/speech', {
      model: 'gemini-2.5-flash-preview-tts',
      input,
      voice: 'Kore',
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { message: string; param: string } };
    expect(body.error.param).toBe('response_format');
    expect(body.error.message).toMatch(/wav or pcm/);
    expect(gemini.requests).toHaveLength(0);
    const logs = await usageLogsOf(user.id);
    expect(logs.every((log) => log.cost === 0)).toBe(true);
  });
});

describe('POST /v1/moderations', () => {
  it('classifies text through the SDK, free at the catalog price', async () => {
    const { user, client } = await billedClient();
    gateway.simulator.reset();
    const moderation = await client.moderations.create({ input: ['I will kill them', 'a nice day'] });
    expect(moderation.model).toBe('omni-moderation-latest');
    expect(moderation.results.map((result) => result.flagged)).toEqual([true, false]);
    expect(moderation.results[0]?.categories.violence).toBe(true);
    expect(gateway.simulator.requests[0]?.body).toMatchObject({ model: 'omni-moderation-latest' });
    const logs = await usageLogsOf(user.id);
    expect(logs.map((log) => [log.endpoint, log.status, log.cost])).toEqual([['moderations', 200, 0]]);
  });

  it('passes text and image parts through', async () => {
    const { client } = await billedClient();
    gateway.simulator.reset();
    const moderation = await client.moderations.create({
      model: 'omni-moderation-latest',
      input: [
        { type: 'text', text: 'a picture' },
        { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
      ],
    });
    expect(moderation.results).toHaveLength(1);
    expect(gateway.simulator.requests[0]?.body).toMatchObject({
      input: [{ type: 'text' }, { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } }],
    });
  });
});

describe('validation', () => {
  it.each([
    { case: 'no voice', path: '/audio/speech', body: { model: 'tts-1', input }, param: 'voice' },
    {
      case: 'input too long',
      path: '/audio/speech',
      body: { model: 'tts-1', input: 'a'.repeat(4097), voice: 'alloy' },
      param: 'input',
    },
    {
      case: 'speed out of range',
      path: '/audio/speech',
      body: { model: 'tts-1', input, voice: 'alloy', speed: 5 },
      param: 'speed',
    },
    {
      case: 'unknown format',
      path: '/audio/speech',
      body: { model: 'tts-1', input, voice: 'alloy', response_format: 'ogg' },
      param: 'response_format',
    },
    {
      case: 'instructions with tts-1',
      path: '/audio/speech',
      body: { model: 'tts-1', input, voice: 'alloy', instructions: 'x' },
      param: 'instructions',
    },
    {
      case: 'sse with tts-1-hd',
      path: '/audio/speech',
      body: { model: 'tts-1-hd', input, voice: 'alloy', stream_format: 'sse' },
      param: 'stream_format',
    },
    {
      case: 'a voice the model lacks',
      path: '/audio/speech',
      body: { model: 'tts-1', input, voice: 'Kore' },
      param: 'voice',
    },
    {
      case: 'an unknown field',
      path: '/audio/speech',
      body: { model: 'tts-1', input, voice: 'alloy', pitch: 2 },
      param: 'pitch',
    },
    {
      case: 'a chat model',
      path: '/audio/speech',
      body: { model: 'omni-moderation-latest', input, voice: 'alloy' },
      param: 'model',
    },
    { case: 'no input', path: '/moderations', body: { model: 'omni-moderation-latest' }, param: 'input' },
    { case: 'a bad part', path: '/moderations', body: { input: [{ type: 'audio', audio: 'x' }] }, param: 'input' },
    { case: 'a speech model', path: '/moderations', body: { model: 'tts-1', input: 'x' }, param: 'model' },
  ])(
    'refuses $case with an OpenAI-shaped 400 naming the field, sending and charging nothing',
    async ({ path, body, param }) => {
      const { user, secret } = await billedClient();
      gateway.simulator.reset();
      const response = await postJson(secret, path, body);
      expect(response.status).toBe(400);
      const answer = (await response.json()) as { error: { type: string; param: string | null; message: string } };
      expect(answer.error.type).toBe('invalid_request_error');
      expect(answer.error.param ?? '').toContain(param);
      expect(gateway.simulator.requests).toHaveLength(0);
      expect(await usageLogsOf(user.id)).toEqual([]);
    },
  );
});
