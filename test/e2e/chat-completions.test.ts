import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectChatCompletionShape, expectErrorResponseShape } from '../helpers/openai-response-shapes.js';
import { postRawJson, type TestGateway } from '../helpers/start-test-gateway.js';
import { startSimulatedGateway, type SimulatedGateway } from '../helpers/start-simulated-gateway.js';
import type { OpenAiSimulator } from '../simulators/openai-simulator.js';

const channelSecret = 'sk-upstream-chat-channel-secret';
const upstreamNameOfGpt4o = 'gpt-4o-2024-08-06';
const onePixelPng =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

let setup: SimulatedGateway;
let simulator: OpenAiSimulator;
let gateway: TestGateway;
let client: OpenAI;
let clientKey: string;

beforeAll(async () => {
  setup = await startSimulatedGateway({
    channelSecret,
    models: ['gpt-4o', 'gpt-3.5-turbo'],
    modelMapping: { 'gpt-4o': upstreamNameOfGpt4o },
  });
  ({ simulator, gateway, client, clientKey } = setup);
});

afterAll(async () => {
  await setup?.close();
});

beforeEach(() => simulator.reset());

/** The error a rejected SDK call throws. */
async function rejectionOf(promise: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(OpenAI.APIError);
  return error as InstanceType<typeof OpenAI.APIError>;
}

function askGpt4o(request: Partial<OpenAI.Chat.ChatCompletionCreateParamsNonStreaming> = {}) {
  return client.chat.completions.create({
    model: 'gpt-4o',
    messages: [{ role: 'user', content: 'hello there world' }],
    ...request,
  });
}

function chatRequestsReceivedUpstream() {
  return simulator.requests.filter((recorded) => recorded.path === '/v1/chat/completions');
}

describe('POST /v1/chat/completions without streaming', () => {
  it('answers a multi-turn conversation with a system message in the OpenAI chat completion shape', async () => {
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'first question' },
      { role: 'assistant', content: 'first answer' },
      { role: 'user', content: 'second question' },
    ];
    const completion = await client.chat.completions.create({ model: 'gpt-4o', messages });
    expectChatCompletionShape(completion);
    expect(completion.choices).toHaveLength(1);
    expect(completion.choices[0]).toMatchObject({
      index: 0,
      finish_reason: 'stop',
      message: { role: 'assistant', content: 'Echo: second question' },
    });
    expect(chatRequestsReceivedUpstream()[0]?.body).toMatchObject({ messages });
  });

  it('conforms to the OpenAI shape on the wire, not only after the SDK parsed it', async () => {
    const response = await postRawJson(gateway, clientKey, '/v1/chat/completions', {
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expectChatCompletionShape(response.json());
  });

  it("sends the channel's secret upstream, never the client's key", async () => {
    await askGpt4o();
    const upstreamHeaders = chatRequestsReceivedUpstream()[0]?.headers;
    expect(upstreamHeaders?.authorization).toBe(`Bearer ${channelSecret}`);
    expect(JSON.stringify(upstreamHeaders)).not.toContain(clientKey);
  });

  it("sends the channel's upstream model name for the public model id", async () => {
    await askGpt4o();
    expect(chatRequestsReceivedUpstream()[0]?.body).toMatchObject({ model: upstreamNameOfGpt4o });
  });

  it('reports usage whose prompt and completion tokens add up to the total', async () => {
    const completion = await askGpt4o();
    const usage = completion.usage;
    expect(usage?.prompt_tokens).toBeGreaterThan(0);
    expect(usage?.completion_tokens).toBeGreaterThan(0);
    expect(usage?.total_tokens).toBe((usage?.prompt_tokens ?? 0) + (usage?.completion_tokens ?? 0));
  });

  it('accepts image_url content parts for a vision model and passes them upstream', async () => {
    const completion = await askGpt4o({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'what is this' },
            { type: 'image_url', image_url: { url: onePixelPng } },
          ],
        },
      ],
    });
    expect(completion.choices[0]?.message.content).toBe('Echo: what is this');
    expect(chatRequestsReceivedUpstream()[0]?.body).toMatchObject({
      messages: [{ content: [{ type: 'text' }, { type: 'image_url', image_url: { url: onePixelPng } }] }],
    });
  });

  it('rejects image_url content parts for a text-only model with a 400 naming the part, without calling upstream', async () => {
    const error = await rejectionOf(
      client.chat.completions.create({
        model: 'gpt-3.5-turbo',
        messages: [
          { role: 'system', content: 'Describe images.' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'what is this' },
              { type: 'image_url', image_url: { url: onePixelPng } },
            ],
          },
        ],
      }),
    );
    expect(error).toMatchObject({ status: 400, type: 'invalid_request_error', param: 'messages[1].content[1]' });
    expect(chatRequestsReceivedUpstream()).toHaveLength(0);
  });

  it.each([0, 1.3, 2])('accepts temperature %s, within 0 to 2, and passes it upstream', async (temperature) => {
    await askGpt4o({ temperature });
    expect(chatRequestsReceivedUpstream()[0]?.body).toMatchObject({ temperature });
  });

  it('rejects temperature 3 with a 400 naming temperature', async () => {
    const error = await rejectionOf(askGpt4o({ temperature: 3 }));
    expect(error).toMatchObject({ status: 400, type: 'invalid_request_error', param: 'temperature' });
    expect(chatRequestsReceivedUpstream()).toHaveLength(0);
  });

  it('accepts top_p within 0 to 1 and rejects 1.5 with a 400 naming top_p', async () => {
    await askGpt4o({ top_p: 0.5 });
    expect(chatRequestsReceivedUpstream()[0]?.body).toMatchObject({ top_p: 0.5 });
    const error = await rejectionOf(askGpt4o({ top_p: 1.5 }));
    expect(error).toMatchObject({ status: 400, param: 'top_p' });
  });

  it('cuts the answer at max_tokens and reports finish_reason "length"', async () => {
    const completion = await askGpt4o({ max_tokens: 2 });
    expect(completion.choices[0]).toMatchObject({ finish_reason: 'length', message: { content: 'Echo: hello' } });
    expect(completion.usage?.completion_tokens).toBe(2);
  });

  it('ends the answer before a stop sequence and reports finish_reason "stop"', async () => {
    const completion = await askGpt4o({ stop: ['world'] });
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(completion.choices[0]?.message.content?.trim()).toBe('Echo: hello there');
    expect(chatRequestsReceivedUpstream()[0]?.body).toMatchObject({ stop: ['world'] });
  });

  it('answers n: 2 with two choices indexed 0 and 1', async () => {
    const completion = await askGpt4o({ n: 2 });
    expectChatCompletionShape(completion);
    expect(completion.choices.map((choice) => choice.index)).toEqual([0, 1]);
    expect(completion.choices.map((choice) => choice.message.content)).toEqual([
      'Echo: hello there world',
      'Echo: hello there world',
    ]);
  });

  it('passes response_format json_object upstream and returns JSON text', async () => {
    const completion = await askGpt4o({
      response_format: { type: 'json_object' },
      messages: [{ role: 'user', content: 'reply in json' }],
    });
    expect(JSON.parse(completion.choices[0]?.message.content ?? '')).toEqual({ echo: 'reply in json' });
    expect(chatRequestsReceivedUpstream()[0]?.body).toMatchObject({ response_format: { type: 'json_object' } });
  });

  it('passes the official fields through and drops metadata, which the channel did not opt in to forward', async () => {
    await postRawJson(gateway, clientKey, '/v1/chat/completions', {
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'hi' }],
      seed: 7,
      metadata: { purpose: 'end-to-end test' },
    });
    const forwarded = chatRequestsReceivedUpstream()[0]?.body;
    expect(forwarded).toMatchObject({ seed: 7 });
    expect(forwarded).not.toHaveProperty('metadata');
  });

  it('rejects an empty messages array with a 400 in the OpenAI error shape naming messages', async () => {
    const response = await postRawJson(gateway, clientKey, '/v1/chat/completions', { model: 'gpt-4o', messages: [] });
    expect(response.status).toBe(400);
    expect(expectErrorResponseShape(response.json())).toMatchObject({
      type: 'invalid_request_error',
      param: 'messages',
    });
  });
});
