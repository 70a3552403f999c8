// Once a request was sent upstream, it is charged for what the vendor did, whenever the client hangs up: a non-streamed
// answer is still read and billed from its usage (usage log 499), at least the estimated input when no usage can be
// had; a stream is read on (drained) and billed from the vendor's usage, its hold when none can be had
// (abandoned-stream-billing.test.ts has every wire). Before anything was sent, leaving costs nothing.
import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { countTextTokens } from '../../src/billing/count-text-tokens.js';
import { startImageServer, type ImageServer } from '../helpers/start-image-server.js';
import { startAnthropicSimulator, type AnthropicSimulator } from '../simulators/anthropic-simulator.js';
import { startBedrockSimulator, type BedrockSimulator } from '../simulators/bedrock-simulator.js';
import { createUnitPrice, startBillingTestGateway, type BillingTestGateway } from './start-billing-test-gateway.js';
import { cutStreamAfterFirstWords } from './cut-stream-after-first-words.js';
import { createBilledClient, estimatedChatInput, waitForSettledLog } from './settled-request-helpers.js';

const anthropicSecret = 'sk-ant-abort-upstream';
const startingBalance = 10_000_000;
const question: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'hello there world' }];
/** The OpenAI simulator answers this after one second, with 3 prompt and 20 completion tokens. */
const slowModel = 'sim-paced-20x50';
/** A second later, an answer without any usage. */
const slowAnswerWithoutUsage = 'sim-delay-1000-sim-no-usage';
/** Served by two channels: the first answers 500 after a second, the second would answer at once. */
const failingThenHealthy = 'abandoned-failover';
const anthropicSlowModel = 'abort-anthropic-slow';
const anthropicStreamModel = 'abort-anthropic-stream';
const bedrockModel = 'abort-bedrock';
const models = [
  slowModel,
  slowAnswerWithoutUsage,
  'sim-hang',
  failingThenHealthy,
  anthropicSlowModel,
  anthropicStreamModel,
  bedrockModel,
];

let gateway: BillingTestGateway;
let anthropic: AnthropicSimulator;
let bedrock: BedrockSimulator;
let images: ImageServer;

beforeAll(async () => {
  gateway = await startBillingTestGateway({
    models: [slowModel, slowAnswerWithoutUsage, 'sim-hang'],
    prices: models.map(createUnitPrice),
    config: { imageFetchAllowPrivateAddresses: true },
  });
  // Streams pause before each content event, so a client can leave in the middle.
  anthropic = await startAnthropicSimulator({ apiKey: anthropicSecret, streamChunkDelayMs: 50 });
  bedrock = await startBedrockSimulator();
  images = await startImageServer();
  const openAi = { protocol: 'openai', baseUrl: gateway.simulator.url, secret: 'upstream' };
  await gateway.createChannel({
    ...openAi,
    models: { [failingThenHealthy]: 'sim-delay-1000-sim-error-500' },
    priority: 1,
  });
  await gateway.createChannel({ ...openAi, models: { [failingThenHealthy]: 'gpt-4o' }, priority: 0 });
  await gateway.createChannel({
    protocol: 'anthropic',
    baseUrl: anthropic.url,
    secret: anthropicSecret,
    models: { [anthropicSlowModel]: 'sim-paced-9x100', [anthropicStreamModel]: 'claude-sim' },
  });
  await gateway.createChannel({
    protocol: 'bedrock',
    baseUrl: bedrock.url,
    secret: bedrock.channelSecret,
    models: { [bedrockModel]: 'anthropic.claude-3-5-sonnet-20240620-v1:0' },
    settings: { region: bedrock.region },
  });
});

afterAll(async () => {
  await gateway?.close();
  await anthropic?.close();
  await bedrock?.close();
  await images?.close();
});

/** Sends the request and hangs up as soon as `arrived()` says it reached the upstream (or the image server). */
async function hangUpAfterArrival(
  client: OpenAI,
  body: OpenAI.Chat.ChatCompletionCreateParams,
  arrived: () => boolean,
): Promise<void> {
  const controller = new AbortController();
  const outcome = client.chat.completions.create(body, { signal: controller.signal }).then(
    () => 'answered',
    () => 'aborted',
  );
  await vi.waitFor(() => expect(arrived()).toBe(true), { timeout: 10_000, interval: 5 });
  controller.abort();
  expect(await outcome).toBe('aborted');
}

const arrivedAt = (upstream: { requests: unknown[] }) => {
  const before = upstream.requests.length;
  return () => upstream.requests.length > before;
};

describe('a client that hangs up on a non-streamed request', () => {
  it('is charged the usage of the answer the vendor still sent (OpenAI), logged 499, the vendor left undisturbed', async () => {
    const { userId, client } = await createBilledClient(gateway, startingBalance);
    const abortedBefore = gateway.simulator.abortedRequestCount();
    await hangUpAfterArrival(client, { model: slowModel, messages: question }, arrivedAt(gateway.simulator));
    const log = await waitForSettledLog(gateway, userId, startingBalance);
    // 3 prompt words and 20 generated words, one token each, one micro-unit a token.
    expect(log).toMatchObject({
      status: 499,
      errorCode: 'client_closed_request',
      promptTokens: 3,
      completionTokens: 20,
      cost: 23,
    });
    expect(gateway.simulator.abortedRequestCount()).toBe(abortedBefore);
  });

  it('is charged the usage of the answer the vendor still sent (Anthropic), the same as a client that waited', async () => {
    const waiting = await createBilledClient(gateway, startingBalance);
    await waiting.client.chat.completions.create({ model: anthropicSlowModel, messages: question });
    const fullCost = (await waitForSettledLog(gateway, waiting.userId, startingBalance)).cost;
    expect(fullCost).toBeGreaterThan(0);

    const { userId, client } = await createBilledClient(gateway, startingBalance);
    await hangUpAfterArrival(client, { model: anthropicSlowModel, messages: question }, arrivedAt(anthropic));
    expect(await waitForSettledLog(gateway, userId, startingBalance)).toMatchObject({
      status: 499,
      errorCode: 'client_closed_request',
      cost: fullCost,
    });
    expect(anthropic.abortedRequestCount()).toBe(0);
  });

  it('is charged the estimated input and the answer text when the vendor answers without usage', async () => {
    const { userId, client } = await createBilledClient(gateway, startingBalance);
    const body = { model: slowAnswerWithoutUsage, messages: question };
    await hangUpAfterArrival(client, body, arrivedAt(gateway.simulator));
    const log = await waitForSettledLog(gateway, userId, startingBalance);
    expect(log).toMatchObject({
      status: 499,
      cost: estimatedChatInput(body) + countTextTokens('Echo: hello there world'),
    });
  });

  it('is charged at least the estimated input when the vendor fails after the request was sent, and no other channel is tried', async () => {
    const { userId, client } = await createBilledClient(gateway, startingBalance);
    gateway.simulator.reset();
    const body = { model: failingThenHealthy, messages: question };
    await hangUpAfterArrival(client, body, arrivedAt(gateway.simulator));
    const log = await waitForSettledLog(gateway, userId, startingBalance);
    expect(estimatedChatInput(body)).toBeGreaterThan(0);
    expect(log).toMatchObject({ status: 499, errorCode: 'client_closed_request', cost: estimatedChatInput(body) });
    expect(gateway.simulator.requests.map((request) => (request.body as { model: string }).model)).toEqual([
      'sim-delay-1000-sim-error-500',
    ]);
  });

  it('costs nothing when it leaves before the request was sent (a translated vendor still fetching an image URL)', async () => {
    const { userId, client } = await createBilledClient(gateway, startingBalance);
    const imageUrl = `${images.url}/never.png`;
    const content: OpenAI.Chat.ChatCompletionContentPart[] = [
      { type: 'text', text: 'what is this' },
      { type: 'image_url', image_url: { url: imageUrl } },
    ];
    const requestsBefore = bedrock.requests.length;
    await hangUpAfterArrival(client, { model: bedrockModel, messages: [{ role: 'user', content }] }, () =>
      images.requestedPaths.includes('/never.png'),
    );
    expect(await waitForSettledLog(gateway, userId, startingBalance)).toMatchObject({
      status: 499,
      errorCode: 'client_closed_request',
      cost: 0,
    });
    expect(bedrock.requests).toHaveLength(requestsBefore);
  });
});

describe('a client that hangs up on a stream', () => {
  it('is charged the usage the vendor reported at its end on a translated vendor (Anthropic), not the text it saw', async () => {
    const { userId, client } = await createBilledClient(gateway, startingBalance);
    const words = Array.from({ length: 40 }, (_, index) => `word${index}`).join(' ');
    const body = {
      model: anthropicStreamModel,
      messages: [{ role: 'user' as const, content: words }],
      stream: true as const,
    };
    await cutStreamAfterFirstWords(client, body);
    const log = await waitForSettledLog(gateway, userId, startingBalance);
    // The simulator counts a token a word: the forty prompt words, and "Echo:" with the forty words echoed.
    expect(log).toMatchObject({ status: 499, promptTokens: 40, completionTokens: 41, cost: 81 });
    expect(anthropic.abortedRequestCount()).toBe(0);
  });
});

describe('a vendor that never answers a client who left', () => {
  let timeoutGateway: BillingTestGateway;

  beforeAll(async () => {
    timeoutGateway = await startBillingTestGateway({
      models: ['sim-hang'],
      prices: [createUnitPrice('sim-hang')],
      config: { upstreamHeadersTimeoutMs: 1_000 },
    });
  });

  afterAll(async () => {
    await timeoutGateway?.close();
  });

  it('is charged its hold for a stream the vendor had not begun: given up at the upstream headers timeout', async () => {
    const { userId, client } = await createBilledClient(timeoutGateway, startingBalance);
    const abortedBefore = timeoutGateway.simulator.abortedRequestCount();
    const body = { model: 'sim-hang', messages: question, max_tokens: 100, stream: true as const };
    await hangUpAfterArrival(client, body, arrivedAt(timeoutGateway.simulator));
    const log = await waitForSettledLog(timeoutGateway, userId, startingBalance);
    expect(log).toMatchObject({
      status: 499,
      errorCode: 'client_closed_request',
      cost: estimatedChatInput(body) + 100,
    });
    await vi.waitFor(() => expect(timeoutGateway.simulator.abortedRequestCount()).toBe(abortedBefore + 1), {
      timeout: 5_000,
    });
  });

  it('is given up at the upstream headers timeout and charged the estimated input', async () => {
    const { userId, client } = await createBilledClient(timeoutGateway, startingBalance);
    const abortedBefore = timeoutGateway.simulator.abortedRequestCount();
    const body = { model: 'sim-hang', messages: question };
    await hangUpAfterArrival(client, body, arrivedAt(timeoutGateway.simulator));
    const log = await waitForSettledLog(timeoutGateway, userId, startingBalance);
    expect(log).toMatchObject({ status: 499, errorCode: 'client_closed_request', cost: estimatedChatInput(body) });
    // The gateway closed the vendor's connection at its timeout, not when the client left.
    await vi.waitFor(() => expect(timeoutGateway.simulator.abortedRequestCount()).toBe(abortedBefore + 1), {
      timeout: 5_000,
    });
  });
});
