import type OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectChatCompletionChunkShape } from '../helpers/openai-response-shapes.js';
import { postRawJson, readEventData, type TestGateway } from '../helpers/start-test-gateway.js';
import { startSimulatedGateway, type SimulatedGateway } from '../helpers/start-simulated-gateway.js';
import type { OpenAiSimulator } from '../simulators/openai-simulator.js';

const channelSecret = 'sk-upstream-streaming-channel';
const conversation: OpenAI.Chat.ChatCompletionMessageParam[] = [
  { role: 'system', content: 'Answer in one line.' },
  { role: 'user', content: 'stream these few words back please' },
];

let setup: SimulatedGateway;
let simulator: OpenAiSimulator;
let gateway: TestGateway;
let client: OpenAI;
let clientKey: string;

beforeAll(async () => {
  setup = await startSimulatedGateway({ channelSecret, models: ['gpt-4o'] });
  ({ simulator, gateway, client, clientKey } = setup);
});

afterAll(async () => {
  await setup?.close();
});

beforeEach(() => simulator.reset());

async function collectChunks(
  stream: AsyncIterable<OpenAI.Chat.ChatCompletionChunk>,
): Promise<OpenAI.Chat.ChatCompletionChunk[]> {
  const chunks: OpenAI.Chat.ChatCompletionChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

function joinedContent(chunks: OpenAI.Chat.ChatCompletionChunk[]): string {
  return chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');
}

function streamRequestBody(extra: Record<string, unknown> = {}) {
  return { model: 'gpt-4o', messages: conversation, stream: true, ...extra };
}

describe('POST /v1/chat/completions with stream: true', () => {
  it('streams deltas that join to the same text as the non-streamed answer', async () => {
    const nonStreamed = await client.chat.completions.create({ model: 'gpt-4o', messages: conversation });
    const chunks = await collectChunks(
      await client.chat.completions.create({ model: 'gpt-4o', messages: conversation, stream: true }),
    );
    expect(chunks.length).toBeGreaterThan(2);
    expect(joinedContent(chunks)).toBe(nonStreamed.choices[0]?.message.content);
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('stop');
  });

  it('sends every chunk in the OpenAI chunk shape with one id for the whole stream', async () => {
    const chunks = await collectChunks(
      await client.chat.completions.create({ model: 'gpt-4o', messages: conversation, stream: true }),
    );
    chunks.forEach(expectChatCompletionChunkShape);
    expect(new Set(chunks.map((chunk) => chunk.id)).size).toBe(1);
  });

  it('answers as an event stream whose raw bytes end with "data: [DONE]" and a blank line', async () => {
    const response = await postRawJson(gateway, clientKey, '/v1/chat/completions', streamRequestBody());
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(response.text.endsWith('data: [DONE]\n\n')).toBe(true);
    expect(readEventData(response.text).filter((data) => data === '[DONE]')).toHaveLength(1);
  });

  it('sends no usage to a client that did not ask, while asking the vendor for usage', async () => {
    const response = await postRawJson(gateway, clientKey, '/v1/chat/completions', streamRequestBody());
    const chunks = readEventData(response.text)
      .filter((data) => data !== '[DONE]')
      .map((data) => JSON.parse(data) as { choices: unknown[]; usage?: unknown });
    expect(chunks.every((chunk) => chunk.usage === undefined || chunk.usage === null)).toBe(true);
    expect(chunks.every((chunk) => chunk.choices.length > 0)).toBe(true);
    expect(simulator.requests[0]?.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it('ends with a usage chunk that has no choices when the client asks for include_usage', async () => {
    const stream = await client.chat.completions.create({
      model: 'gpt-4o',
      messages: conversation,
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = await collectChunks(stream);
    const lastChunk = chunks.at(-1);
    expectChatCompletionChunkShape(lastChunk);
    expect(lastChunk?.choices).toEqual([]);
    const usage = lastChunk?.usage;
    expect(usage?.completion_tokens).toBeGreaterThan(0);
    expect(usage?.total_tokens).toBe((usage?.prompt_tokens ?? 0) + (usage?.completion_tokens ?? 0));
    expect(chunks.slice(0, -1).every((chunk) => chunk.usage === null || chunk.usage === undefined)).toBe(true);
  });

  it('reports the same usage in the stream as without streaming', async () => {
    const nonStreamed = await client.chat.completions.create({ model: 'gpt-4o', messages: conversation });
    const chunks = await collectChunks(
      await client.chat.completions.create({
        model: 'gpt-4o',
        messages: conversation,
        stream: true,
        stream_options: { include_usage: true },
      }),
    );
    expect(chunks.at(-1)?.usage).toMatchObject({
      prompt_tokens: nonStreamed.usage?.prompt_tokens,
      completion_tokens: nonStreamed.usage?.completion_tokens,
      total_tokens: nonStreamed.usage?.total_tokens,
    });
  });

  it('streams n: 2 as two interleaved choices that each join to the full answer', async () => {
    const chunks = await collectChunks(
      await client.chat.completions.create({ model: 'gpt-4o', messages: conversation, stream: true, n: 2 }),
    );
    const textOf = (index: number) =>
      chunks
        .flatMap((chunk) => chunk.choices)
        .filter((choice) => choice.index === index)
        .map((choice) => choice.delta.content ?? '')
        .join('');
    expect(textOf(0)).toBe('Echo: stream these few words back please');
    expect(textOf(1)).toBe(textOf(0));
  });

  it("assembles a final completion with the SDK's stream helper", async () => {
    const deltas: string[] = [];
    const stream = client.chat.completions.stream({ model: 'gpt-4o', messages: conversation });
    stream.on('content', (delta) => deltas.push(delta));
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]?.message.content).toBe('Echo: stream these few words back please');
    expect(final.choices[0]?.finish_reason).toBe('stop');
    expect(deltas.join('')).toBe(final.choices[0]?.message.content);
  });
});
