import type OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectCompletionShape } from '../helpers/openai-response-shapes.js';
import { postRawJson, readEventData, type TestGateway } from '../helpers/start-test-gateway.js';
import { startSimulatedGateway, type SimulatedGateway } from '../helpers/start-simulated-gateway.js';
import type { OpenAiSimulator } from '../simulators/openai-simulator.js';

const channelSecret = 'sk-upstream-completions-channel';
const model = 'gpt-3.5-turbo-instruct';
const prompt = 'Say this is a test';

let setup: SimulatedGateway;
let simulator: OpenAiSimulator;
let gateway: TestGateway;
let client: OpenAI;
let clientKey: string;

beforeAll(async () => {
  setup = await startSimulatedGateway({ channelSecret, models: [model, 'text-embedding-3-small'] });
  ({ simulator, gateway, client, clientKey } = setup);
});

afterAll(async () => {
  await setup?.close();
});

beforeEach(() => simulator.reset());

async function collectChunks(stream: AsyncIterable<OpenAI.Completion>): Promise<OpenAI.Completion[]> {
  const chunks: OpenAI.Completion[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

describe('POST /v1/completions (legacy)', () => {
  it('answers a prompt in the OpenAI text_completion shape with usage', async () => {
    const completion = await client.completions.create({ model, prompt });
    expectCompletionShape(completion);
    expect(completion.choices[0]).toMatchObject({ index: 0, text: `Echo: ${prompt}`, finish_reason: 'stop' });
    expect(completion.usage?.total_tokens).toBe(
      (completion.usage?.prompt_tokens ?? 0) + (completion.usage?.completion_tokens ?? 0),
    );
    expect(simulator.requests[0]).toMatchObject({
      path: '/v1/completions',
      body: { model, prompt },
      headers: { authorization: `Bearer ${channelSecret}` },
    });
  });

  it('answers several prompts with one choice each and honours max_tokens', async () => {
    const completion = await client.completions.create({
      model,
      prompt: ['first prompt here', 'second prompt here'],
      max_tokens: 2,
    });
    expect(completion.choices.map((choice) => [choice.index, choice.text, choice.finish_reason])).toEqual([
      [0, 'Echo: first', 'length'],
      [1, 'Echo: second', 'length'],
    ]);
  });

  it('streams chunks in the completion shape that join to the non-streamed text', async () => {
    const chunks = await collectChunks(await client.completions.create({ model, prompt, stream: true }));
    chunks.forEach((chunk) => expectCompletionShape(chunk, { streamed: true }));
    expect(chunks.map((chunk) => chunk.choices[0]?.text ?? '').join('')).toBe(`Echo: ${prompt}`);
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('stop');
    expect(simulator.requests[0]?.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it('ends a raw completion stream with "data: [DONE]" and keeps usage from a client that did not ask', async () => {
    const response = await postRawJson(gateway, clientKey, '/v1/completions', { model, prompt, stream: true });
    expect(response.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(response.text.endsWith('data: [DONE]\n\n')).toBe(true);
    const chunks = readEventData(response.text)
      .filter((data) => data !== '[DONE]')
      .map((data) => JSON.parse(data) as { usage?: unknown; choices: unknown[] });
    expect(
      chunks.every((chunk) => (chunk.usage === undefined || chunk.usage === null) && chunk.choices.length > 0),
    ).toBe(true);
  });

  it('ends the stream with a usage chunk when the client asks for include_usage', async () => {
    const chunks = await collectChunks(
      await client.completions.create({ model, prompt, stream: true, stream_options: { include_usage: true } }),
    );
    const lastChunk = chunks.at(-1);
    expect(lastChunk?.choices).toEqual([]);
    expect(lastChunk?.usage).toMatchObject({ prompt_tokens: 5, completion_tokens: 6, total_tokens: 11 });
  });

  it('rejects an embedding model with a 400 naming model, without calling upstream', async () => {
    const error = await client.completions
      .create({ model: 'text-embedding-3-small', prompt })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 400, param: 'model' });
    expect(simulator.requests).toHaveLength(0);
  });

  it('rejects a missing prompt with a 400 naming prompt', async () => {
    const response = await postRawJson(gateway, clientKey, '/v1/completions', { model });
    expect(response.status).toBe(400);
    expect(response.json()).toMatchObject({ error: { type: 'invalid_request_error', param: 'prompt' } });
  });
});
