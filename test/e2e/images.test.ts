import { crc32, deflateSync } from 'node:zlib';
import OpenAI, { toFile } from 'openai';
import { FormData } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectErrorResponseShape, expectImagesResponseShape } from '../helpers/openai-response-shapes.js';
import { postRawJson, sendRawRequest, type TestGateway } from '../helpers/start-test-gateway.js';
import { startSimulatedGateway, type SimulatedGateway } from '../helpers/start-simulated-gateway.js';
import type { OpenAiSimulator } from '../simulators/openai-simulator.js';

const channelSecret = 'sk-upstream-images-channel';
const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** One PNG chunk: length, type, data and the CRC of type and data. */
function encodePngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const checksum = Buffer.alloc(4);
  checksum.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, checksum]);
}

/** A valid RGBA PNG filled with one colour. */
function createSolidPng(width: number, height: number, rgba: [number, number, number, number]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(6, 9); // colour type RGBA
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 4).map((_, index) => rgba[index % 4]!)]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    pngSignature,
    encodePngChunk('IHDR', header),
    encodePngChunk('IDAT', deflateSync(pixels)),
    encodePngChunk('IEND', Buffer.alloc(0)),
  ]);
}

let setup: SimulatedGateway;
let simulator: OpenAiSimulator;
let gateway: TestGateway;
let client: OpenAI;
let clientKey: string;

beforeAll(async () => {
  setup = await startSimulatedGateway({ channelSecret, models: ['dall-e-3', 'dall-e-2', 'gpt-image-1'] });
  ({ simulator, gateway, client, clientKey } = setup);
});

afterAll(async () => {
  await setup?.close();
});

beforeEach(() => simulator.reset());

async function rejectionOf(promise: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(OpenAI.APIError);
  return error as InstanceType<typeof OpenAI.APIError>;
}

describe('POST /v1/images/generations', () => {
  it('generates n images as URLs with the requested size and passes every parameter upstream', async () => {
    const response = await client.images.generate({
      model: 'dall-e-2',
      prompt: 'a lighthouse at dusk',
      n: 2,
      size: '512x512',
      response_format: 'url',
    });
    expectImagesResponseShape(response, 'url');
    expect(response.data).toHaveLength(2);
    expect(simulator.requests[0]?.body).toMatchObject({
      model: 'dall-e-2',
      prompt: 'a lighthouse at dusk',
      n: 2,
      size: '512x512',
      response_format: 'url',
    });
  });

  it('generates an hd image as base64 JSON that decodes to a PNG', async () => {
    const response = await client.images.generate({
      model: 'dall-e-3',
      prompt: 'a red bicycle',
      size: '1792x1024',
      quality: 'hd',
      response_format: 'b64_json',
    });
    expectImagesResponseShape(response, 'b64_json');
    const image = Buffer.from(response.data?.[0]?.b64_json ?? '', 'base64');
    expect(image.subarray(0, 8)).toEqual(pngSignature);
    expect(simulator.requests[0]?.body).toMatchObject({
      quality: 'hd',
      size: '1792x1024',
      response_format: 'b64_json',
    });
  });

  it('conforms to the images response shape on the wire', async () => {
    const response = await postRawJson(gateway, clientKey, '/v1/images/generations', {
      model: 'dall-e-3',
      prompt: 'a quiet harbour',
      n: 1,
      size: '1024x1024',
    });
    expect(response.status).toBe(200);
    expectImagesResponseShape(response.json(), 'url');
  });

  it('rejects a size the model does not offer (dall-e-3 at 256x256) with a 400 naming size, without calling upstream', async () => {
    const error = await rejectionOf(
      client.images.generate({ model: 'dall-e-3', prompt: 'a tiny picture', size: '256x256' }),
    );
    expect(error).toMatchObject({ status: 400, type: 'invalid_request_error', param: 'size' });
    expect(error.message).toContain('1024x1024');
    expect(simulator.requests).toHaveLength(0);
  });

  it('passes the token usage of gpt-image models through to the client', async () => {
    const response = await client.images.generate({ model: 'gpt-image-1', prompt: 'a green apple', size: '1024x1536' });
    expect(response.usage).toMatchObject({ output_tokens: 272 });
  });

  it('rejects a missing prompt with a 400 naming prompt', async () => {
    const response = await postRawJson(gateway, clientKey, '/v1/images/generations', { model: 'dall-e-3' });
    expect(response.status).toBe(400);
    expect(expectErrorResponseShape(response.json()).param).toBe('prompt');
  });
});

describe('POST /v1/images/edits', () => {
  const image = createSolidPng(4, 4, [200, 30, 30, 255]);
  const mask = createSolidPng(4, 4, [0, 0, 0, 0]);

  it('edits an uploaded PNG with a mask and forwards both files, unchanged, with the form fields', async () => {
    const response = await client.images.edit({
      model: 'dall-e-2',
      image: await toFile(image, 'original.png', { type: 'image/png' }),
      mask: await toFile(mask, 'mask.png', { type: 'image/png' }),
      prompt: 'paint the masked area blue',
      n: 2,
      size: '256x256',
    });
    expectImagesResponseShape(response, 'url');
    expect(response.data).toHaveLength(2);
    expect(simulator.requests[0]).toMatchObject({
      path: '/v1/images/edits',
      headers: { authorization: `Bearer ${channelSecret}` },
      body: {
        model: 'dall-e-2',
        prompt: 'paint the masked area blue',
        n: '2',
        size: '256x256',
        image: { filename: 'original.png', contentType: 'image/png', size: image.length },
        mask: { filename: 'mask.png', contentType: 'image/png', size: mask.length },
      },
    });
  });

  it('returns an edit as base64 JSON when asked', async () => {
    const response = await client.images.edit({
      model: 'gpt-image-1',
      image: await toFile(image, 'original.png', { type: 'image/png' }),
      prompt: 'add a border',
      response_format: 'b64_json',
    });
    expectImagesResponseShape(response, 'b64_json');
  });

  it('rejects an edit for a model without edit support with a 400 naming model', async () => {
    const error = await rejectionOf(
      client.images.edit({
        model: 'dall-e-3',
        image: await toFile(image, 'original.png', { type: 'image/png' }),
        prompt: 'edit it',
      }),
    );
    expect(error).toMatchObject({ status: 400, param: 'model' });
    expect(simulator.requests).toHaveLength(0);
  });

  it('rejects an edit size the model does not offer with a 400 naming size', async () => {
    const error = await rejectionOf(
      client.images.edit({
        model: 'dall-e-2',
        image: await toFile(image, 'original.png', { type: 'image/png' }),
        prompt: 'edit it',
        size: '1024x1536',
      }),
    );
    expect(error).toMatchObject({ status: 400, param: 'size' });
  });

  it('rejects an edit without an image file with a 400 naming image', async () => {
    const form = new FormData();
    form.append('model', 'dall-e-2');
    form.append('prompt', 'edit nothing');
    const response = await sendRawRequest(gateway, { path: '/v1/images/edits', apiKey: clientKey, body: form });
    expect(response.status).toBe(400);
    expect(expectErrorResponseShape(response.json()).param).toBe('image');
  });
});
