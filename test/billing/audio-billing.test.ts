// Transcriptions are billed by what the vendor reports (its duration, or its tokens for models it bills by tokens); with
// no report, from what was really uploaded: a WAV header that lies cannot make audio cheaper.
import { toFile } from 'openai';
import { FormData } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelPrice } from '../../src/billing/model-price.js';
import { createMp3 } from '../helpers/create-mp3.js';
import { createWav } from '../helpers/create-wav.js';
import { sendRawRequest } from '../helpers/start-test-gateway.js';
import {
  createUnitPrice,
  settleEverything,
  startBillingTestGateway,
  type BillingTestGateway,
} from './start-billing-test-gateway.js';

const audioModel = 'whisper-1';
const tokenModel = 'gpt-4o-transcribe';
const startingBalance = 10_000_000;
/** One micro-unit per token in, three per token out, one per millisecond of audio. */
const tokenPrice: ModelPrice = { ...createUnitPrice(tokenModel), outputPerMillion: 3_000_000 };

let gateway: BillingTestGateway;

beforeAll(async () => {
  gateway = await startBillingTestGateway({
    models: [audioModel, tokenModel],
    prices: [createUnitPrice(audioModel), tokenPrice],
  });
});

afterAll(async () => {
  await gateway?.close();
});

async function billedKey() {
  const user = await gateway.createUser();
  const key = await gateway.createKey(user);
  await gateway.topUp(user, startingBalance);
  return { user, secret: key.secret };
}

async function usageLogsOf(userId: string) {
  await settleEverything([gateway.running], userId);
  return gateway.running.billing.store.listUsageLogs({ userId, limit: 10 });
}

/** A one-second 8 kHz mono 16-bit WAV (16,000 bytes of samples) whose header fields are then overwritten. */
function forgedWav(fields: { byteRate?: number; dataSize?: number; sampleRate?: number }): Buffer {
  const wav = createWav(1, { sampleRate: 8_000, toneHz: 440 });
  if (fields.sampleRate !== undefined) wav.writeUInt32LE(fields.sampleRate, 24);
  if (fields.byteRate !== undefined) wav.writeUInt32LE(fields.byteRate, 28);
  if (fields.dataSize !== undefined) wav.writeUInt32LE(fields.dataSize, 40);
  return wav;
}

describe('audio is billed from what was uploaded', () => {
  // The unit price is 60,000 micro-units a minute: one per millisecond, so one second of audio costs 1,000.
  it.each([
    { case: 'a byte rate claiming the audio lasts microseconds', fields: { byteRate: 0xffffffff } },
    { case: 'a data size claiming two bytes', fields: { dataSize: 2 } },
  ])('bills a WAV whose header lies ($case) for its real second, with response_format=text', async ({ fields }) => {
    const { user, secret } = await billedKey();
    const text = await gateway.client(secret).audio.transcriptions.create({
      model: audioModel,
      file: await toFile(forgedWav(fields), 'forged.wav'),
      response_format: 'text',
    });
    expect(text.trim()).toBe('Simulated transcript of forged.wav');
    const logs = await usageLogsOf(user.id);
    expect(logs.map((log) => [log.status, log.cost])).toEqual([[200, 1_000]]);
  });

  it('refuses a WAV whose sample rate no real audio has, with a 400 naming file, before any upstream call or charge', async () => {
    const { user, secret } = await billedKey();
    gateway.simulator.reset();
    const form = new FormData();
    form.append('model', audioModel);
    form.append('response_format', 'text');
    form.append('file', new Blob([forgedWav({ sampleRate: 1 })], { type: 'audio/wav' }), 'forged.wav');
    const response = await sendRawRequest(gateway, { path: '/v1/audio/transcriptions', apiKey: secret, body: form });
    expect(response.status).toBe(400);
    expect(response.json()).toMatchObject({ error: { type: 'invalid_request_error', param: 'file' } });
    expect(gateway.simulator.requests).toHaveLength(0);
    expect(await gateway.running.billing.store.readBalance(user.id)).toBe(startingBalance);
  });

  it.each(['json', 'verbose_json'] as const)(
    'bills a 9 s compressed file (MP3) the 9 s the vendor reports, not the bytes-based ceiling of its hold (%s)',
    async (responseFormat) => {
      const { user, secret } = await billedKey();
      // 144,000 bytes: 72 s at the 2,000-bytes-a-second ceiling the hold uses; the vendor decodes 9 s.
      const mp3 = createMp3(9);
      expect(mp3.length).toBe(144_000);
      const transcription = await gateway.client(secret).audio.transcriptions.create({
        model: audioModel,
        file: await toFile(mp3, 'speech.mp3'),
        response_format: responseFormat,
      });
      expect(transcription.usage).toEqual({ type: 'duration', seconds: 9 });
      const logs = await usageLogsOf(user.id);
      expect(logs.map((log) => [log.status, log.cost])).toEqual([[200, 9_000]]);
      expect(await gateway.running.billing.store.readBalance(user.id)).toBe(startingBalance - 9_000);
    },
  );

  it('charges the hold (the bytes-based ceiling) for a compressed file the vendor reports no duration for', async () => {
    const { user, secret } = await billedKey();
    // response_format=text carries no usage: 10,000 bytes at 2,000 bytes a second, 5 seconds, as held.
    const text = await gateway.client(secret).audio.transcriptions.create({
      model: audioModel,
      file: await toFile(Buffer.alloc(10_000, 1), 'speech.mp3'),
      response_format: 'text',
    });
    expect(text.trim()).toBe('Simulated transcript of speech.mp3');
    const logs = await usageLogsOf(user.id);
    expect(logs.map((log) => log.cost)).toEqual([5_000]);
  });

  it('prices token-typed transcription usage (gpt-4o-transcribe) by its tokens', async () => {
    const { user, secret } = await billedKey();
    const transcription = await gateway.client(secret).audio.transcriptions.create({
      model: tokenModel,
      file: await toFile(createWav(1.5), 'speech.wav'),
      response_format: 'json',
    });
    const usage = transcription.usage;
    if (usage?.type !== 'tokens') throw new Error(`expected token usage, got ${JSON.stringify(usage)}`);
    expect(usage.input_tokens).toBeGreaterThan(0);
    const logs = await usageLogsOf(user.id);
    expect(logs.map((log) => [log.promptTokens, log.completionTokens, log.cost])).toEqual([
      [usage.input_tokens, usage.output_tokens, usage.input_tokens + 3 * usage.output_tokens],
    ]);
  });
});
