// Every field the official API description defines for each endpoint is checked for type and range: a wrong type,
// a value out of range or a number that overflows gets a 400 naming the parameter, and the vendor is never called.
import { FormData } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createWav } from '../helpers/create-wav.js';
import { expectErrorResponseShape } from '../helpers/openai-response-shapes.js';
import { postRawJson, sendRawRequest, type RawResponse } from '../helpers/start-test-gateway.js';
import { startSimulatedGateway, type SimulatedGateway } from '../helpers/start-simulated-gateway.js';

const channelSecret = 'sk-upstream-validation';
const servedModels = [
  'gpt-4o',
  // a model whose limits the simulator does not enforce (it refuses gpt-4o's real ones), for the range edges
  'gpt-5-chat-latest',
  'gpt-3.5-turbo-instruct',
  'text-embedding-3-small',
  'dall-e-2',
  'dall-e-3',
  'gpt-image-1',
  'gpt-image-1.5',
  'whisper-1',
];
const user = { role: 'user', content: 'hi' };
const beyondSafeInteger = 2 ** 53;

let setup: SimulatedGateway;

beforeAll(async () => {
  setup = await startSimulatedGateway({ channelSecret, models: servedModels });
});

afterAll(async () => {
  await setup?.close();
});

beforeEach(() => setup.simulator.reset());

function expectBadRequest(response: RawResponse, param: string): void {
  expect(response.status, response.text).toBe(400);
  expect(expectErrorResponseShape(response.json())).toMatchObject({
    type: 'invalid_request_error',
    code: 'invalid_request_error',
    param,
  });
  expect(setup.simulator.requests).toHaveLength(0);
}

const chatBase = { model: 'gpt-4o', messages: [user] };
const completionBase = { model: 'gpt-3.5-turbo-instruct', prompt: 'hi' };
const embeddingBase = { model: 'text-embedding-3-small', input: 'hi' };
const imageBase = { prompt: 'a cat' };

describe.each([
  [
    '/v1/chat/completions',
    chatBase,
    [
      [{ n: 'two' }, 'n'],
      [{ n: 0 }, 'n'],
      [{ n: 129 }, 'n'],
      [{ n: 1.5 }, 'n'],
      [{ temperature: '1' }, 'temperature'],
      [{ temperature: 2.5 }, 'temperature'],
      [{ temperature: 1e308 }, 'temperature'],
      [{ top_p: 1.1 }, 'top_p'],
      [{ presence_penalty: 3 }, 'presence_penalty'],
      [{ frequency_penalty: -2.5 }, 'frequency_penalty'],
      [{ max_tokens: 1e308 }, 'max_tokens'],
      [{ max_tokens: 1.5 }, 'max_tokens'],
      [{ max_tokens: beyondSafeInteger }, 'max_tokens'],
      [{ max_tokens: -1 }, 'max_tokens'],
      [{ max_completion_tokens: 0 }, 'max_completion_tokens'],
      [{ max_completion_tokens: beyondSafeInteger }, 'max_completion_tokens'],
      [{ reasoning_effort: 'extreme' }, 'reasoning_effort'],
      [{ reasoning_effort: 5 }, 'reasoning_effort'],
      [{ verbosity: 'loud' }, 'verbosity'],
      [{ modalities: ['video'] }, 'modalities[0]'],
      [{ modalities: 'text' }, 'modalities'],
      [{ logit_bias: { 50256: 101 } }, 'logit_bias.50256'],
      [{ logit_bias: { 50256: 'x' } }, 'logit_bias.50256'],
      [{ logit_bias: { 50256: 1.5 } }, 'logit_bias.50256'],
      [{ logit_bias: { word: 1 } }, 'logit_bias.word'],
      [{ logit_bias: [1] }, 'logit_bias'],
      [{ logprobs: true, top_logprobs: 21 }, 'top_logprobs'],
      [{ top_logprobs: 5 }, 'top_logprobs'],
      [{ logprobs: 'yes' }, 'logprobs'],
      [{ seed: 1.5 }, 'seed'],
      [{ seed: 1e20 }, 'seed'],
      [{ seed: 'x' }, 'seed'],
      [{ stop: 5 }, 'stop'],
      [{ stop: ['a', 'b', 'c', 'd', 'e'] }, 'stop'],
      [{ stop: [] }, 'stop'],
      [{ user: 5 }, 'user'],
      [{ prompt_cache_key: 5 }, 'prompt_cache_key'],
      [{ safety_identifier: 'x'.repeat(65) }, 'safety_identifier'],
      [{ prompt_cache_retention: '1h' }, 'prompt_cache_retention'],
      [{ service_tier: 'turbo' }, 'service_tier'],
      [{ tool_choice: 'sometimes' }, 'tool_choice'],
      [{ tool_choice: { type: 'function' } }, 'tool_choice'],
      [{ parallel_tool_calls: 'no' }, 'parallel_tool_calls'],
      [{ tools: [{ type: 'function', function: { name: 'bad name' } }] }, 'tools[0].function.name'],
      [{ response_format: { type: 'xml' } }, 'response_format.type'],
      [{ response_format: { type: 'json_schema' } }, 'response_format.json_schema'],
      [{ store: 'yes' }, 'store'],
      [{ metadata: 'x' }, 'metadata'],
      [{ stream: 'true' }, 'stream'],
      [{ stream_options: { include_usage: true } }, 'stream_options'],
      [{ audio: { voice: 'alloy', format: 'ogg' } }, 'audio.format'],
      [{ web_search_options: { search_context_size: 'huge' } }, 'web_search_options.search_context_size'],
      [{ messages: 'hi' }, 'messages'],
      [
        {
          messages: [
            { role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'AA==', format: 'ogg' } }] },
          ],
        },
        'messages[0].content',
      ],
      [{ model: undefined }, 'model'],
      [{ model: 5 }, 'model'],
    ],
  ],
  [
    '/v1/completions',
    completionBase,
    [
      [{ best_of: 21 }, 'best_of'],
      [{ best_of: 1, n: 2 }, 'best_of'],
      [{ logprobs: 6 }, 'logprobs'],
      [{ max_tokens: -1 }, 'max_tokens'],
      [{ max_tokens: 1e308 }, 'max_tokens'],
      [{ echo: 'y' }, 'echo'],
      [{ suffix: 5 }, 'suffix'],
      [{ prompt: 5 }, 'prompt'],
      [{ prompt: undefined }, 'prompt'],
      [{ prompt: [1.5] }, 'prompt'],
      [{ n: 0 }, 'n'],
      [{ logit_bias: { 1: 200 } }, 'logit_bias.1'],
      [{ seed: 'x' }, 'seed'],
      [{ temperature: 3 }, 'temperature'],
      [{ stream_options: {} }, 'stream_options'],
      [{ model: undefined }, 'model'],
    ],
  ],
  [
    '/v1/embeddings',
    embeddingBase,
    [
      [{ encoding_format: 'int8' }, 'encoding_format'],
      [{ dimensions: 0 }, 'dimensions'],
      [{ dimensions: 1.5 }, 'dimensions'],
      [{ dimensions: beyondSafeInteger }, 'dimensions'],
      [{ input: '' }, 'input'],
      [{ input: [] }, 'input'],
      [{ input: Array.from({ length: 2049 }, () => 'a') }, 'input'],
      [{ input: [[]] }, 'input[0]'],
      [{ input: 5 }, 'input'],
      [{ input: [1.5] }, 'input'],
      [{ input: [Array.from({ length: 8193 }, () => 1)] }, 'input'],
      [{ input: undefined }, 'input'],
      [{ user: 5 }, 'user'],
      [{ model: undefined }, 'model'],
    ],
  ],
  [
    '/v1/images/generations',
    imageBase,
    [
      [{ n: 11 }, 'n'],
      [{ n: 0 }, 'n'],
      [{ n: '2' }, 'n'],
      [{ n: beyondSafeInteger }, 'n'],
      [{ size: 'big' }, 'size'],
      [{ quality: 'ultra' }, 'quality'],
      [{ style: 'pastel' }, 'style'],
      [{ model: 'gpt-image-1', moderation: 'high' }, 'moderation'],
      [{ model: 'gpt-image-1', background: 'clear' }, 'background'],
      [{ model: 'gpt-image-1', output_format: 'gif' }, 'output_format'],
      [{ model: 'gpt-image-1', output_compression: 101 }, 'output_compression'],
      [{ model: 'gpt-image-1', output_compression: 1.5 }, 'output_compression'],
      [{ response_format: 'png' }, 'response_format'],
      [{ stream: true }, 'stream'],
      [{ model: 'gpt-image-1', partial_images: 4 }, 'partial_images'],
      [{ prompt: '' }, 'prompt'],
      [{ prompt: undefined }, 'prompt'],
      [{ user: 1 }, 'user'],
      [{ model: '' }, 'model'],
      // Per model, from the description: dall-e-3 makes one image; dall-e-2 has no style, no hd, 1,000 prompt characters, no GPT-image options.
      [{ model: 'dall-e-3', n: 2 }, 'n'],
      [{ style: 'vivid' }, 'style'],
      [{ quality: 'hd' }, 'quality'],
      [{ prompt: 'x'.repeat(1001) }, 'prompt'],
      [{ background: 'transparent' }, 'background'],
      [{ model: 'dall-e-3', quality: 'low' }, 'quality'],
      [{ model: 'gpt-image-1', style: 'vivid' }, 'style'],
    ],
  ],
] as Array<[string, Record<string, unknown>, Array<[Record<string, unknown>, string]>]>)('%s', (path, base, cases) => {
  it.each(cases)('refuses %j naming %s', async (change, param) => {
    expectBadRequest(await postRawJson(setup.gateway, setup.clientKey, path, { ...base, ...change }), param);
  });
});

/** A multipart form: text fields (repeat a name with an array), plus files by field name. */
function form(fields: Record<string, string | string[]>, files: Record<string, Buffer> = {}): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    for (const item of Array.isArray(value) ? value : [value]) data.append(name, item);
  }
  for (const [name, content] of Object.entries(files))
    data.append(name.replace(/#\d+$/, ''), new Blob([content], { type: 'application/octet-stream' }), 'upload.bin');
  return data;
}

function postForm(path: string, data: FormData): Promise<RawResponse> {
  return sendRawRequest(setup.gateway, { path, apiKey: setup.clientKey, body: data });
}

const pngBytes = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const editBase = { prompt: 'a hat', model: 'gpt-image-1' };
const transcriptionBase = { model: 'whisper-1' };

describe('/v1/images/edits', () => {
  it.each([
    [{ n: 'two' }, 'n'],
    [{ n: '11' }, 'n'],
    [{ n: '1.5' }, 'n'],
    [{ n: '' }, 'n'],
    [{ n: '0x2' }, 'n'],
    [{ size: 'big' }, 'size'],
    [{ quality: 'hd' }, 'quality'],
    [{ output_compression: '101' }, 'output_compression'],
    [{ stream: 'true' }, 'stream'],
    [{ stream: 'maybe' }, 'stream'],
    [{ input_fidelity: 'max' }, 'input_fidelity'],
    [{ background: 'clear' }, 'background'],
    [{ response_format: 'gif' }, 'response_format'],
    [{ output_format: 'bmp' }, 'output_format'],
    [{ partial_images: '9' }, 'partial_images'],
    [{ frobnicate: 'yes' }, 'frobnicate'],
    [{ prompt: '' }, 'prompt'],
    [{ model: 'dall-e-2', prompt: 'x'.repeat(1001) }, 'prompt'],
    [{ model: 'dall-e-2', background: 'opaque' }, 'background'],
  ] as Array<[Record<string, string>, string]>)('refuses %j naming %s', async (change, param) => {
    expectBadRequest(await postForm('/v1/images/edits', form({ ...editBase, ...change }, { image: pngBytes })), param);
  });

  it('refuses a form without image, with two masks, or with an unknown file field', async () => {
    expectBadRequest(await postForm('/v1/images/edits', form(editBase)), 'image');
    expectBadRequest(
      await postForm('/v1/images/edits', form(editBase, { image: pngBytes, mask: pngBytes, 'mask#2': pngBytes })),
      'mask',
    );
    expectBadRequest(
      await postForm('/v1/images/edits', form(editBase, { image: pngBytes, thumbnail: pngBytes })),
      'thumbnail',
    );
  });
});

describe('/v1/audio/transcriptions', () => {
  const wav = createWav(0.5);
  it.each([
    [{ response_format: 'mp3' }, 'response_format'],
    [{ temperature: '2' }, 'temperature'],
    [{ temperature: 'hot' }, 'temperature'],
    [{ temperature: '' }, 'temperature'],
    [{ language: 'english' }, 'language'],
    [{ 'timestamp_granularities[]': 'word' }, 'timestamp_granularities'],
    [{ response_format: 'verbose_json', 'timestamp_granularities[]': 'char' }, 'timestamp_granularities[0]'],
    [{ 'include[]': 'tokens' }, 'include[0]'],
    [{ response_format: 'text', 'include[]': 'logprobs' }, 'include'],
    [{ stream: 'true' }, 'stream'],
    [{ chunking_strategy: 'manual' }, 'chunking_strategy'],
    [{ 'chunking_strategy[type]': 'client_vad' }, 'chunking_strategy'],
    [{ 'chunking_strategy[type]': 'server_vad', 'chunking_strategy[threshold]': '2' }, 'chunking_strategy.threshold'],
    [{ 'known_speaker_names[]': ['a', 'b', 'c', 'd', 'e'] }, 'known_speaker_names'],
    [{ frobnicate: '1' }, 'frobnicate'],
    [{ 'colors[]': 'red' }, 'colors[]'],
    [{ model: '' }, 'model'],
  ] as Array<[Record<string, string | string[]>, string]>)('refuses %j naming %s', async (change, param) => {
    expectBadRequest(
      await postForm('/v1/audio/transcriptions', form({ ...transcriptionBase, ...change }, { file: wav })),
      param,
    );
  });

  it('refuses a form without model', async () => {
    const response = await postForm('/v1/audio/transcriptions', form({}, { file: wav }));
    expectBadRequest(response, 'model');
    expect((response.json() as { error: { message: string } }).error.message).toBe(
      "Missing required parameter: 'model'.",
    );
  });

  it('accepts the description fields, repeated fields included, and forwards them', async () => {
    const response = await postForm(
      '/v1/audio/transcriptions',
      form(
        {
          ...transcriptionBase,
          response_format: 'verbose_json',
          'timestamp_granularities[]': ['word', 'segment'],
          language: 'en',
          temperature: '0.2',
          'chunking_strategy[type]': 'server_vad',
          'chunking_strategy[threshold]': '0.4',
        },
        { file: wav },
      ),
    );
    expect(response.status, response.text).toBe(200);
    expect(setup.simulator.requests).toHaveLength(1);
  });
});

describe('defaults and accepted values', () => {
  it('generates images with dall-e-2, OpenAI\u2019s default, when no model is named', async () => {
    const response = await postRawJson(setup.gateway, setup.clientKey, '/v1/images/generations', {
      prompt: 'a cat',
      size: '256x256',
    });
    expect(response.status, response.text).toBe(200);
    expect(setup.simulator.requests[0]?.body).toMatchObject({ model: 'dall-e-2' });
  });

  it('keeps the description default for edits (gpt-image-1.5) when no model is named', async () => {
    const response = await postForm('/v1/images/edits', form({ prompt: 'a hat' }, { image: pngBytes }));
    expect(response.status, response.text).toBe(200);
    expect(setup.simulator.requests).toHaveLength(1);
  });

  it('accepts every range edge the description allows', async () => {
    const chat = await postRawJson(setup.gateway, setup.clientKey, '/v1/chat/completions', {
      ...chatBase,
      model: 'gpt-5-chat-latest',
      n: 128,
      temperature: 2,
      top_p: 0,
      max_tokens: Number.MAX_SAFE_INTEGER,
      seed: -Number.MAX_SAFE_INTEGER,
      logprobs: true,
      top_logprobs: 20,
      logit_bias: { 50256: -100, 0: 100 },
      stop: ['a', 'b', 'c', 'd'],
      reasoning_effort: 'minimal',
      verbosity: 'high',
      modalities: ['text'],
      service_tier: 'auto',
      safety_identifier: 'x'.repeat(64),
      prompt_cache_key: 'k',
    });
    expect(chat.status, chat.text).toBe(200);
    expect(setup.simulator.requests).toHaveLength(1);
  });
});
