import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectEmbeddingResponseShape, expectErrorResponseShape } from '../helpers/openai-response-shapes.js';
import { postRawJson, type TestGateway } from '../helpers/start-test-gateway.js';
import { startSimulatedGateway, type SimulatedGateway } from '../helpers/start-simulated-gateway.js';
import type { OpenAiSimulator } from '../simulators/openai-simulator.js';

const channelSecret = 'sk-upstream-embeddings-channel';
const model = 'text-embedding-3-small';

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

describe('POST /v1/embeddings', () => {
  it("decodes the SDK's default base64 vectors to the same numbers as encoding_format float", async () => {
    const fromBase64 = await client.embeddings.create({ model, input: 'the quick brown fox' });
    const fromFloats = await client.embeddings.create({
      model,
      input: 'the quick brown fox',
      encoding_format: 'float',
    });
    expect(
      simulator.requests.map((recorded) => (recorded.body as { encoding_format?: string }).encoding_format),
    ).toEqual(['base64', 'float']);
    expect(fromBase64.data[0]?.embedding.length).toBeGreaterThan(0);
    expect(fromBase64.data[0]?.embedding).toEqual(fromFloats.data[0]?.embedding);
  });

  it('answers float vectors in the OpenAI embedding list shape', async () => {
    const response = await postRawJson(gateway, clientKey, '/v1/embeddings', {
      model,
      input: 'shape check',
      encoding_format: 'float',
    });
    expect(response.status).toBe(200);
    expectEmbeddingResponseShape(response.json(), 'float');
  });

  it('answers base64 vectors in the OpenAI embedding list shape', async () => {
    const response = await postRawJson(gateway, clientKey, '/v1/embeddings', {
      model,
      input: 'shape check',
      encoding_format: 'base64',
    });
    expect(response.status).toBe(200);
    expectEmbeddingResponseShape(response.json(), 'base64');
  });

  it('embeds several inputs as one vector each, in input order', async () => {
    const inputs = ['alpha', 'beta gamma', 'delta epsilon zeta'];
    const response = await client.embeddings.create({ model, input: inputs, encoding_format: 'float' });
    expect(response.data.map((embedding) => embedding.index)).toEqual([0, 1, 2]);
    const single = await client.embeddings.create({ model, input: 'beta gamma', encoding_format: 'float' });
    expect(response.data[1]?.embedding).toEqual(single.data[0]?.embedding);
    expect(response.data[0]?.embedding).not.toEqual(response.data[1]?.embedding);
    expect(response.usage).toMatchObject({ prompt_tokens: 6, total_tokens: 6 });
  });

  it('passes dimensions upstream and returns vectors of that length', async () => {
    const response = await client.embeddings.create({ model, input: 'short', dimensions: 4 });
    expect(response.data[0]?.embedding).toHaveLength(4);
    expect(simulator.requests[0]?.body).toMatchObject({ dimensions: 4 });
  });

  it.each([
    ['an empty string', ''],
    ['an empty array', []],
    ['an array holding an empty string', ['fine', '']],
  ])('rejects %s as input with a 400 naming input, without calling upstream', async (_description, input) => {
    const response = await postRawJson(gateway, clientKey, '/v1/embeddings', { model, input });
    expect(response.status).toBe(400);
    expect(expectErrorResponseShape(response.json()).param).toMatch(/^input/);
    expect(simulator.requests).toHaveLength(0);
  });

  it('rejects empty input through the SDK as a BadRequestError', async () => {
    const error = await client.embeddings.create({ model, input: '' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
  });

  it('rejects a chat model with a 400 naming model', async () => {
    const error = await client.embeddings.create({ model: 'gpt-4o', input: 'text' }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 400, param: 'model' });
  });
});
