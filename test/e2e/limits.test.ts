import OpenAI from 'openai';
import { FormData } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectErrorResponseShape } from '../helpers/openai-response-shapes.js';
import { postRawJson, sendRawRequest, type TestGateway } from '../helpers/start-test-gateway.js';
import { startSimulatedGateway, type SimulatedGateway } from '../helpers/start-simulated-gateway.js';
import type { OpenAiSimulator } from '../simulators/openai-simulator.js';

const channelSecret = 'sk-upstream-limits-channel';
const uploadLimitBytes = 64 * 1024;

/** Allowed image sizes per model, from the spec's section 8, and one size each model must refuse. */
const imageSizesByModel = [
  { model: 'dall-e-3', allowed: ['1024x1024', '1792x1024', '1024x1792'], refused: '512x512' },
  { model: 'dall-e-2', allowed: ['256x256', '512x512', '1024x1024'], refused: '1792x1024' },
  { model: 'gpt-image-1', allowed: ['1024x1024', '1536x1024', '1024x1536'], refused: '1792x1024' },
] as const;

let setup: SimulatedGateway;
let simulator: OpenAiSimulator;
let gateway: TestGateway;
let client: OpenAI;
let clientKey: string;

beforeAll(async () => {
  setup = await startSimulatedGateway({
    channelSecret,
    models: ['gpt-4o', 'gpt-3.5-turbo-instruct', 'dall-e-3', 'dall-e-2', 'gpt-image-1', 'whisper-1'],
    gateway: { config: { uploadLimitBytes } },
  });
  ({ simulator, gateway, client, clientKey } = setup);
});

afterAll(async () => {
  await setup?.close();
});

beforeEach(() => simulator.reset());

function chatWith(fields: Record<string, unknown>) {
  return postRawJson(gateway, clientKey, '/v1/chat/completions', {
    model: 'gpt-4o',
    messages: [{ role: 'user', content: 'hi' }],
    ...fields,
  });
}

function completionWith(fields: Record<string, unknown>) {
  return postRawJson(gateway, clientKey, '/v1/completions', {
    model: 'gpt-3.5-turbo-instruct',
    prompt: 'hi',
    ...fields,
  });
}

function transcriptionUpload(fileBytes: number): FormData {
  const form = new FormData();
  form.append('model', 'whisper-1');
  form.append('file', new Blob([Buffer.alloc(fileBytes)], { type: 'audio/wav' }), 'noise.wav');
  return form;
}

describe('sampling parameter ranges (spec section 8)', () => {
  it.each([
    ['temperature', 0],
    ['temperature', 2],
    ['top_p', 0],
    ['top_p', 1],
  ])('accepts %s = %s at the edge of its range for chat and legacy completions', async (field, value) => {
    expect((await chatWith({ [field]: value })).status).toBe(200);
    expect((await completionWith({ [field]: value })).status).toBe(200);
  });

  it.each([
    ['temperature', -0.1],
    ['temperature', 2.01],
    ['top_p', -0.1],
    ['top_p', 1.01],
  ])(
    'rejects %s = %s with a 400 naming it, for chat and legacy completions, without calling upstream',
    async (field, value) => {
      for (const response of [await chatWith({ [field]: value }), await completionWith({ [field]: value })]) {
        expect(response.status).toBe(400);
        expect(expectErrorResponseShape(response.json())).toMatchObject({
          type: 'invalid_request_error',
          param: field,
        });
      }
      expect(simulator.requests).toHaveLength(0);
    },
  );

  it('rejects more than four stop sequences with a 400 naming stop', async () => {
    const response = await chatWith({ stop: ['a', 'b', 'c', 'd', 'e'] });
    expect(response.status).toBe(400);
    expect(expectErrorResponseShape(response.json()).param).toBe('stop');
  });

  it('rejects max_tokens 0 with a 400 naming max_tokens', async () => {
    const response = await chatWith({ max_tokens: 0 });
    expect(response.status).toBe(400);
    expect(expectErrorResponseShape(response.json()).param).toBe('max_tokens');
  });

  it('answers one JSON completion, not an event stream, when stream is left at its default', async () => {
    const response = await chatWith({});
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toMatchObject({ object: 'chat.completion' });
  });
});

describe('image sizes by model (spec section 8)', () => {
  for (const { model, allowed, refused } of imageSizesByModel) {
    it(`accepts ${allowed.join(', ')} for ${model}`, async () => {
      for (const size of allowed) {
        const response = await postRawJson(gateway, clientKey, '/v1/images/generations', {
          model,
          prompt: 'a square',
          size,
        });
        expect(response.status, `${model} at ${size}: ${response.text}`).toBe(200);
      }
    });

    it(`rejects ${refused} for ${model} with a 400 naming size`, async () => {
      const response = await postRawJson(gateway, clientKey, '/v1/images/generations', {
        model,
        prompt: 'a square',
        size: refused,
      });
      expect(response.status).toBe(400);
      expect(expectErrorResponseShape(response.json()).param).toBe('size');
      expect(simulator.requests).toHaveLength(0);
    });
  }

  it('generates one image when n is not given', async () => {
    const response = await client.images.generate({ model: 'dall-e-3', prompt: 'a single picture' });
    expect(response.data).toHaveLength(1);
  });

  it('rejects more than ten images per request with a 400 naming n', async () => {
    const error = await client.images
      .generate({ model: 'dall-e-2', prompt: 'many pictures', n: 11 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ param: 'n' });
  });
});

describe('upload size limit', () => {
  it('accepts an uploaded file under the configured upload limit', async () => {
    const response = await sendRawRequest(gateway, {
      path: '/v1/audio/transcriptions',
      apiKey: clientKey,
      body: transcriptionUpload(uploadLimitBytes - 1024),
    });
    expect(response.status, response.text).toBe(200);
  });

  it('answers 413 request_too_large for an uploaded file over the configured upload limit, without calling upstream', async () => {
    const response = await sendRawRequest(gateway, {
      path: '/v1/audio/transcriptions',
      apiKey: clientKey,
      body: transcriptionUpload(uploadLimitBytes + 1024),
    });
    expect(response.status, response.text).toBe(413);
    expect(expectErrorResponseShape(response.json()).code).toBe('request_too_large');
    expect(simulator.requests).toHaveLength(0);
  });
});
