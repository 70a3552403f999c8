import OpenAI, { toFile } from 'openai';
import { FormData } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  expectErrorResponseShape,
  expectTranscriptionJsonShape,
  expectTranscriptionVerboseJsonShape,
} from '../helpers/openai-response-shapes.js';
import { sendRawRequest, type TestGateway } from '../helpers/start-test-gateway.js';
import { createWav } from '../helpers/create-wav.js';
import { startSimulatedGateway, type SimulatedGateway } from '../helpers/start-simulated-gateway.js';
import type { OpenAiSimulator } from '../simulators/openai-simulator.js';

const channelSecret = 'sk-upstream-audio-channel';
const model = 'whisper-1';
const sampleRate = 8000;
const durationSeconds = 1.5;

const wav = createWav(durationSeconds, { sampleRate, toneHz: 440 });
const expectedText = 'Simulated transcript of speech.wav';

let setup: SimulatedGateway;
let simulator: OpenAiSimulator;
let gateway: TestGateway;
let client: OpenAI;
let clientKey: string;

beforeAll(async () => {
  setup = await startSimulatedGateway({ channelSecret, models: [model, 'gpt-4o'] });
  ({ simulator, gateway, client, clientKey } = setup);
});

afterAll(async () => {
  await setup?.close();
});

beforeEach(() => simulator.reset());

function speechFile() {
  return toFile(wav, 'speech.wav', { type: 'audio/wav' });
}

describe('POST /v1/audio/transcriptions', () => {
  it('transcribes a WAV upload as json, forwarding the file unchanged with the channel secret', async () => {
    const transcription = await client.audio.transcriptions.create({
      model,
      file: await speechFile(),
      response_format: 'json',
    });
    expectTranscriptionJsonShape(transcription);
    expect(transcription.text).toBe(expectedText);
    expect(simulator.requests[0]).toMatchObject({
      path: '/v1/audio/transcriptions',
      headers: { authorization: `Bearer ${channelSecret}` },
      body: {
        model,
        response_format: 'json',
        file: { filename: 'speech.wav', contentType: 'audio/wav', size: wav.length },
      },
    });
  });

  it('answers verbose_json with a duration equal to the length of the WAV', async () => {
    const transcription = await client.audio.transcriptions.create({
      model,
      file: await speechFile(),
      response_format: 'verbose_json',
    });
    expectTranscriptionVerboseJsonShape(transcription);
    expect(transcription.duration).toBeCloseTo(durationSeconds, 6);
    expect(transcription.segments?.[0]?.end).toBeCloseTo(durationSeconds, 6);
  });

  it('passes timestamp_granularities upstream and returns word timings', async () => {
    const transcription = await client.audio.transcriptions.create({
      model,
      file: await speechFile(),
      response_format: 'verbose_json',
      timestamp_granularities: ['word', 'segment'],
    });
    expectTranscriptionVerboseJsonShape(transcription);
    expect(transcription.words?.length).toBeGreaterThan(0);
    expect(transcription.words?.at(-1)?.end).toBeCloseTo(durationSeconds, 6);
  });

  it('answers text as plain text', async () => {
    const text = await client.audio.transcriptions.create({ model, file: await speechFile(), response_format: 'text' });
    expect(text.trim()).toBe(expectedText);
  });

  it('answers srt with a cue that ends at the length of the WAV', async () => {
    const subtitles = await client.audio.transcriptions.create({
      model,
      file: await speechFile(),
      response_format: 'srt',
    });
    expect(subtitles).toContain('1\n00:00:00,000 --> 00:00:01,500\n');
    expect(subtitles).toContain(expectedText);
  });

  it('answers vtt as a WebVTT document with a cue that ends at the length of the WAV', async () => {
    const subtitles = await client.audio.transcriptions.create({
      model,
      file: await speechFile(),
      response_format: 'vtt',
    });
    expect(subtitles.startsWith('WEBVTT')).toBe(true);
    expect(subtitles).toContain('00:00:00.000 --> 00:00:01.500');
  });

  it('sends plain-text formats with a text content type on the wire', async () => {
    const form = new FormData();
    form.append('model', model);
    form.append('response_format', 'srt');
    form.append('file', new Blob([wav], { type: 'audio/wav' }), 'speech.wav');
    const response = await sendRawRequest(gateway, { path: '/v1/audio/transcriptions', apiKey: clientKey, body: form });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
  });

  it('rejects a request without a file with a 400 naming file, without calling upstream', async () => {
    const form = new FormData();
    form.append('model', model);
    const response = await sendRawRequest(gateway, { path: '/v1/audio/transcriptions', apiKey: clientKey, body: form });
    expect(response.status).toBe(400);
    expect(expectErrorResponseShape(response.json())).toMatchObject({ type: 'invalid_request_error', param: 'file' });
    expect(simulator.requests).toHaveLength(0);
  });

  it('rejects an unknown response_format with a 400 naming response_format', async () => {
    const form = new FormData();
    form.append('model', model);
    form.append('response_format', 'mp3');
    form.append('file', new Blob([wav], { type: 'audio/wav' }), 'speech.wav');
    const response = await sendRawRequest(gateway, { path: '/v1/audio/transcriptions', apiKey: clientKey, body: form });
    expect(response.status).toBe(400);
    expect(expectErrorResponseShape(response.json()).param).toBe('response_format');
  });

  it('rejects a chat model with a 400 naming model', async () => {
    const error = await client.audio.transcriptions
      .create({ model: 'gpt-4o', file: await speechFile() })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ param: 'model' });
  });
});
