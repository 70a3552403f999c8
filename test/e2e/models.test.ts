import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorResponseShape, expectModelListShape, expectModelShape } from '../helpers/openai-response-shapes.js';
import {
  createOpenAiClient,
  sendRawRequest,
  startTestGateway,
  type TestGateway,
} from '../helpers/start-test-gateway.js';
import { startOpenAiSimulator, type OpenAiSimulator } from '../simulators/openai-simulator.js';

const channelSecret = 'sk-upstream-models-channel';
/** A vendor model id with a slash that no catalog knows. */
const modelWithSlash = 'example-lab/house-model-7b-instruct';
const servedModels = ['gpt-4o', 'gpt-3.5-turbo', 'text-embedding-3-small', modelWithSlash];

let simulator: OpenAiSimulator;
let gateway: TestGateway;
let everyModelClient: OpenAI;
let chatOnlyClient: OpenAI;
let everyModelKey: string;

beforeAll(async () => {
  simulator = await startOpenAiSimulator({ apiKey: channelSecret });
  gateway = await startTestGateway();
  await gateway.createChannel({
    baseUrl: simulator.url,
    secret: channelSecret,
    models: servedModels,
    preset: 'together',
  });
  everyModelKey = (await gateway.createKey({ models: ['*'] })).secret;
  everyModelClient = createOpenAiClient(gateway, everyModelKey);
  chatOnlyClient = createOpenAiClient(
    gateway,
    (await gateway.createKey({ models: ['gpt-4o', modelWithSlash] })).secret,
  );
});

afterAll(async () => {
  await gateway?.close();
  await simulator?.close();
});

async function listModelIds(client: OpenAI): Promise<string[]> {
  const ids: string[] = [];
  for await (const model of client.models.list()) ids.push(model.id);
  return ids;
}

describe('GET /v1/models', () => {
  it('answers a list of model objects in the OpenAI shape', async () => {
    const response = await sendRawRequest(gateway, { path: '/v1/models', apiKey: everyModelKey });
    expect(response.status).toBe(200);
    expectModelListShape(response.json());
  });

  it('lists every served model for a key whose group allows all models', async () => {
    expect((await listModelIds(everyModelClient)).sort()).toEqual([...servedModels].sort());
  });

  it("lists only the models of the key's group for a key in a smaller group", async () => {
    expect((await listModelIds(chatOnlyClient)).sort()).toEqual(['gpt-4o', modelWithSlash].sort());
  });

  it('describes catalog models with their vendor and release time', async () => {
    const models = new Map<string, OpenAI.Models.Model>();
    for await (const model of everyModelClient.models.list()) models.set(model.id, model);
    expect(models.get('gpt-4o')).toMatchObject({ id: 'gpt-4o', object: 'model', owned_by: 'openai' });
    expect(models.get('gpt-4o')?.created).toBeGreaterThan(0);
  });
});

describe('GET /v1/models/{id}', () => {
  it('retrieves one model of the group in the OpenAI shape', async () => {
    const model = await chatOnlyClient.models.retrieve('gpt-4o');
    expectModelShape(model);
    expect(model.id).toBe('gpt-4o');
  });

  it("answers 404 model_not_found for a served model outside the key's group", async () => {
    const error = await chatOnlyClient.models.retrieve('gpt-3.5-turbo').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ status: 404, code: 'model_not_found' });
  });

  it('answers 404 model_not_found in the OpenAI error shape for a model no channel serves', async () => {
    const response = await sendRawRequest(gateway, { path: '/v1/models/no-such-model', apiKey: everyModelKey });
    expect(response.status).toBe(404);
    expect(expectErrorResponseShape(response.json()).code).toBe('model_not_found');
  });

  it('retrieves a model whose id contains a slash, as the SDK encodes it', async () => {
    const model = await chatOnlyClient.models.retrieve(modelWithSlash);
    expectModelShape(model);
    expect(model.id).toBe(modelWithSlash);
  });

  it('retrieves a model whose id contains a slash sent unencoded in the path', async () => {
    const response = await sendRawRequest(gateway, { path: `/v1/models/${modelWithSlash}`, apiKey: everyModelKey });
    expect(response.status).toBe(200);
    expect(response.json()).toMatchObject({ id: modelWithSlash, object: 'model' });
  });

  it("labels a model the catalog does not know with its channel's vendor preset", async () => {
    const model = await everyModelClient.models.retrieve(modelWithSlash);
    expect(model.owned_by).toBe('together');
  });

  it('serves chat completions for a model whose id contains a slash', async () => {
    const completion = await chatOnlyClient.chat.completions.create({
      model: modelWithSlash,
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect(completion.choices[0]?.message.content).toBe('Echo: hello');
    expect(simulator.requests.at(-1)?.body).toMatchObject({ model: modelWithSlash });
  });
});
