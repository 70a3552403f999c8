// A stream its client leaves is charged for what the vendor did: the gateway reads it on in the background (nothing is
// written to anyone) until the vendor's usage arrives, hidden reasoning included, on every wire: OpenAI chat and
// Responses passed through, Anthropic Messages passed through and translated, Gemini and Bedrock translated. Where no
// usage can be had (a vendor that reports none, one that stalls until the idle timeout, no drain slot, shutdown's end
// of grace) the request is charged its hold, never just the text the client saw.
import Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { defaultChannelHealthSettings } from '../../src/config/channel-health-settings.js';
import type { UsageLogRecord } from '../../src/storage/billing-records.js';
import { createBillingStore } from '../../src/storage/kysely-billing-store.js';
import { startAnthropicSimulator, type AnthropicSimulator } from '../simulators/anthropic-simulator.js';
import { startBedrockSimulator, type BedrockSimulator } from '../simulators/bedrock-simulator.js';
import { startGeminiSimulator, type GeminiSimulator } from '../simulators/gemini-simulator.js';
import { startOpenAiSimulator, type OpenAiSimulator } from '../simulators/openai-simulator.js';
import { cutStreamAfterFirstWords } from './cut-stream-after-first-words.js';
import { createBilledClient, estimatedChatInput, waitForSettledLog } from './settled-request-helpers.js';
import { createUnitPrice, startBillingTestGateway, type BillingTestGateway } from './start-billing-test-gateway.js';

const startingBalance = 10_000_000;
const anthropicSecret = 'sk-ant-abandoned-streams';
const geminiSecret = 'gemini-abandoned-streams';
/** Every simulator waits this long before each content event, so a client can leave after the first one. */
const chunkDelayMs = 25;
/** How long the gateway waits on a silent vendor body: a stalled drain ends here. */
const idleTimeoutMs = 1_500;
/** The output allowance every request holds (its `max_tokens`), well above what the vendors report. */
const maxTokens = 2_000;
/** Hidden reasoning the reasoning models report, produced before their first visible token. */
const reasoningTokens = 500;
/** Forty words to echo: a stream of some forty events. */
const question = Array.from({ length: 40 }, (_, index) => `word${index}`).join(' ');
const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: question }];

const models = {
  openAiReasoning: 'drain-openai-reasoning',
  openAiResponses: 'drain-openai-responses',
  openAiNoUsage: 'drain-openai-no-usage',
  openAiStall: 'drain-openai-stall',
  openAiHang: 'drain-openai-hang',
  anthropicThinking: 'drain-anthropic-thinking',
  geminiThinking: 'drain-gemini-thinking',
  bedrock: 'drain-bedrock',
} as const;

let gateway: BillingTestGateway;
let openAi: OpenAiSimulator;
let anthropic: AnthropicSimulator;
let gemini: GeminiSimulator;
let bedrock: BedrockSimulator;

beforeAll(async () => {
  gateway = await startBillingTestGateway({
    models: [],
    prices: Object.values(models).map(createUnitPrice),
    config: {
      upstreamHeadersTimeoutMs: idleTimeoutMs,
      upstreamBodyTimeoutMs: idleTimeoutMs,
      channelHealth: { ...defaultChannelHealthSettings, consecutiveFailures: 1 },
    },
  });
  openAi = await startOpenAiSimulator({ streamChunkDelayMs: chunkDelayMs });
  anthropic = await startAnthropicSimulator({ apiKey: anthropicSecret, streamChunkDelayMs: chunkDelayMs });
  gemini = await startGeminiSimulator({ apiKey: geminiSecret, streamChunkDelayMs: chunkDelayMs });
  bedrock = await startBedrockSimulator({ streamFrameDelayMs: chunkDelayMs });
  await gateway.createChannel({
    protocol: 'openai',
    baseUrl: openAi.url,
    secret: 'upstream',
    models: {
      [models.openAiReasoning]: `sim-reasoning-${reasoningTokens}`,
      [models.openAiResponses]: `sim-reasoning-${reasoningTokens}`,
      [models.openAiNoUsage]: 'sim-no-usage',
      [models.openAiStall]: 'sim-stall-after-3',
      [models.openAiHang]: 'sim-hang',
    },
    settings: { responsesApi: 'true' },
  });
  await gateway.createChannel({
    protocol: 'anthropic',
    baseUrl: anthropic.url,
    secret: anthropicSecret,
    models: { [models.anthropicThinking]: `sim-reasoning-${reasoningTokens}` },
  });
  await gateway.createChannel({
    protocol: 'gemini',
    baseUrl: gemini.url,
    secret: geminiSecret,
    models: { [models.geminiThinking]: 'gemini-2.5-flash-thinking' },
  });
  await gateway.createChannel({
    protocol: 'bedrock',
    baseUrl: bedrock.url,
    secret: bedrock.channelSecret,
    models: { [models.bedrock]: 'anthropic.claude-3-5-sonnet-20240620-v1:0' },
    settings: { region: bedrock.region },
  });
});

afterAll(async () => {
  await gateway?.close();
  await openAi?.close();
  await anthropic?.close();
  await gemini?.close();
  await bedrock?.close();
});

/** How a test client asks for a stream: chat through the openai SDK, Responses, or Messages through @anthropic-ai/sdk. */
type ClientWire = 'chat' | 'responses' | 'messages';

/** Streams an answer and hangs up on its first text (`leave`), or reads it to its end; returns the user's usage log. */
async function streamAnswer(
  target: BillingTestGateway,
  wire: ClientWire,
  model: string,
  leave: boolean,
): Promise<UsageLogRecord> {
  const { userId, client } = await createBilledClient(target, startingBalance);
  const controller = new AbortController();
  const stopAtFirstText = (text: string | undefined): boolean => {
    if (!leave || !text) return false;
    controller.abort();
    return true;
  };
  let sawText = false;
  try {
    switch (wire) {
      case 'chat': {
        const body = { model, messages, max_tokens: maxTokens, stream: true as const };
        if (leave) {
          await cutStreamAfterFirstWords(client, body);
          sawText = true;
          break;
        }
        for await (const chunk of await client.chat.completions.create(body)) sawText ||= !!chunk.choices[0]?.delta;
        break;
      }
      case 'responses': {
        const events = await client.responses.create(
          { model, input: question, max_output_tokens: maxTokens, store: false, stream: true },
          { signal: controller.signal },
        );
        for await (const event of events) {
          if (event.type !== 'response.output_text.delta') continue;
          sawText = true;
          if (stopAtFirstText(event.delta)) break;
        }
        break;
      }
      case 'messages': {
        const claude = new Anthropic({ apiKey: clientSecretOf(client), baseURL: target.url, maxRetries: 0 });
        const events = await claude.messages.create(
          { model, max_tokens: maxTokens, messages: [{ role: 'user', content: question }], stream: true },
          { signal: controller.signal },
        );
        for await (const event of events) {
          if (event.type !== 'content_block_delta' || event.delta.type !== 'text_delta') continue;
          sawText = true;
          if (stopAtFirstText(event.delta.text)) break;
        }
        break;
      }
      default: {
        const unreachable: never = wire;
        throw new Error(`unknown wire ${String(unreachable)}`);
      }
    }
  } catch (error) {
    // The SDKs may end an iteration they were told to abort with an abort error.
    if (!controller.signal.aborted) throw error;
  }
  expect(sawText).toBe(true);
  return waitForSettledLog(target, userId, startingBalance);
}

/** The API key an SDK client was made with. */
function clientSecretOf(client: OpenAI): string {
  return String(client.apiKey);
}

/** The hold of a chat stream of this test (one micro-unit a token): its estimated input and its output allowance. */
function chatHold(model: string): number {
  return estimatedChatInput({ model, messages, max_tokens: maxTokens, stream: true }) + maxTokens;
}

describe('a client that leaves a stream after its first text', () => {
  const wires: { name: string; wire: ClientWire; model: string; hiddenOutput: number }[] = [
    {
      name: 'OpenAI chat (passed through), reasoning model',
      wire: 'chat',
      model: models.openAiReasoning,
      hiddenOutput: reasoningTokens,
    },
    {
      name: 'OpenAI Responses (passed through), reasoning model',
      wire: 'responses',
      model: models.openAiResponses,
      hiddenOutput: reasoningTokens,
    },
    {
      name: 'Anthropic Messages (passed through), thinking model',
      wire: 'messages',
      model: models.anthropicThinking,
      hiddenOutput: reasoningTokens,
    },
    {
      name: 'Anthropic through chat (translated), thinking model',
      wire: 'chat',
      model: models.anthropicThinking,
      hiddenOutput: reasoningTokens,
    },
    {
      name: 'Gemini through chat (translated), thinking model',
      wire: 'chat',
      model: models.geminiThinking,
      hiddenOutput: 1,
    },
    {
      name: 'Bedrock through chat (translated; usage after the finish)',
      wire: 'chat',
      model: models.bedrock,
      hiddenOutput: 0,
    },
  ];

  it.each(wires)(
    '$name: is charged exactly the usage the vendor reported at the end',
    async ({ wire, model, hiddenOutput }) => {
      const whole = await streamAnswer(gateway, wire, model, false);
      expect(whole.status).toBe(200);
      // Forty words echoed, plus the hidden reasoning: far more than the one word the leaving client saw.
      expect(whole.completionTokens).toBeGreaterThanOrEqual(40 + hiddenOutput);
      const left = await streamAnswer(gateway, wire, model, true);
      expect(left).toMatchObject({
        status: 499,
        errorCode: 'client_closed_request',
        promptTokens: whole.promptTokens,
        cachedTokens: whole.cachedTokens,
        completionTokens: whole.completionTokens,
        cost: whole.cost,
      });
    },
  );

  it('is charged its hold when the vendor never reports usage on its wire (read to its end all the same)', async () => {
    const abortedBefore = openAi.abortedRequestCount();
    const log = await streamAnswer(gateway, 'chat', models.openAiNoUsage, true);
    expect(log).toMatchObject({
      status: 499,
      errorCode: 'client_closed_request',
      cost: chatHold(models.openAiNoUsage),
    });
    expect(log.completionTokens).toBe(maxTokens);
    expect(openAi.abortedRequestCount()).toBe(abortedBefore);
  });

  it('is charged its hold when the vendor stalls after the client left: the drain ends at the idle timeout', async () => {
    const abortedBefore = openAi.abortedRequestCount();
    const startedAt = Date.now();
    const log = await streamAnswer(gateway, 'chat', models.openAiStall, true);
    expect(log).toMatchObject({ status: 499, errorCode: 'client_closed_request', cost: chatHold(models.openAiStall) });
    // The gateway, not the client, closed the stalled vendor's connection, and not before its idle timeout.
    await vi.waitFor(() => expect(openAi.abortedRequestCount()).toBe(abortedBefore + 1), { timeout: 5_000 });
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(idleTimeoutMs);
  });

  it('is charged its hold when the vendor never answered: the drain ends at the headers timeout, and the breaker counts no failure', async () => {
    const { userId, client } = await createBilledClient(gateway, startingBalance);
    const body = { model: models.openAiHang, messages, max_tokens: maxTokens, stream: true as const };
    const requestsBefore = openAi.requests.length;
    const controller = new AbortController();
    const answer = client.chat.completions.create(body, { signal: controller.signal }).then(
      () => 'answered',
      () => 'aborted',
    );
    await vi.waitFor(() => expect(openAi.requests.length).toBeGreaterThan(requestsBefore), { timeout: 5_000 });
    controller.abort();
    expect(await answer).toBe('aborted');
    const log = await waitForSettledLog(gateway, userId, startingBalance);
    expect(log).toMatchObject({ status: 499, errorCode: 'client_closed_request', cost: chatHold(models.openAiHang) });
    // One timeout opens this gateway's breakers: a drain's timeout must not, as the client's leaving caused the wait.
    const metrics = await fetch(`${gateway.url}/metrics`).then((response) => response.text());
    expect(metrics).not.toMatch(
      new RegExp(`gateway_channel_breaker_state\\{[^}]*model="${models.openAiHang}"[^}]*state="open"\\} 1`),
    );
    expect(await streamAnswer(gateway, 'chat', models.openAiHang.replace('hang', 'reasoning'), false)).toMatchObject({
      status: 200,
    });
  });
});

describe('a node without a free drain slot (GATEWAY_ABANDONED_STREAM_DRAINS=0)', () => {
  let noDrains: BillingTestGateway;
  /** forty words, 25 ms apart, usage at the end */
  const pacedModel = 'sim-paced-40x25';

  beforeAll(async () => {
    noDrains = await startBillingTestGateway({
      models: [pacedModel],
      prices: [createUnitPrice(pacedModel)],
      config: { abandonedStreamDrains: 0 },
    });
  });

  afterAll(async () => {
    await noDrains?.close();
  });

  it('cuts the stream when its client leaves and charges its hold, not the text the client saw', async () => {
    const abortedBefore = noDrains.simulator.abortedRequestCount();
    const log = await streamAnswer(noDrains, 'chat', pacedModel, true);
    expect(log).toMatchObject({ status: 499, errorCode: 'client_closed_request', cost: chatHold(pacedModel) });
    await vi.waitFor(() => expect(noDrains.simulator.abortedRequestCount()).toBe(abortedBefore + 1), {
      timeout: 5_000,
    });
  });
});

describe('graceful shutdown during drains', () => {
  let stopping: BillingTestGateway;
  /** twenty words, 50 ms apart: its drain ends well inside the grace period */
  const quickModel = 'sim-paced-20x50';
  /** one word, then silence: its drain is still waiting when the grace period ends */
  const stalledModel = 'sim-stall-after-1';

  beforeAll(async () => {
    stopping = await startBillingTestGateway({
      models: [quickModel, stalledModel],
      prices: [createUnitPrice(quickModel), createUnitPrice(stalledModel)],
      config: { shutdownGraceMs: 2_000 },
    });
  });

  afterAll(async () => {
    await stopping?.simulator.close();
  });

  it('lets drains finish within the grace period (billed from the usage), then cuts the rest at their hold', async () => {
    const leave = async (model: string) => {
      const { userId, client } = await createBilledClient(stopping, startingBalance);
      await cutStreamAfterFirstWords(client, { model, messages, max_tokens: maxTokens, stream: true });
      return userId;
    };
    const quickUser = await leave(quickModel);
    const stalledUser = await leave(stalledModel);

    await stopping.running.close();

    const store = createBillingStore({ databaseUrl: stopping.databaseUrl });
    try {
      const [quick] = await store.listUsageLogs({ userId: quickUser, limit: 10 });
      const [stalled] = await store.listUsageLogs({ userId: stalledUser, limit: 10 });
      // The simulator reports one token a word: the prompt's words and the twenty generated.
      expect(quick).toMatchObject({ status: 499, errorCode: 'client_closed_request', completionTokens: 20 });
      expect(quick!.cost).toBe(quick!.promptTokens + 20);
      expect(stalled).toMatchObject({ status: 499, errorCode: 'client_closed_request', cost: chatHold(stalledModel) });
      expect(await store.readBalance(stalledUser)).toBe(startingBalance - chatHold(stalledModel));
      expect(await store.findBalanceMismatches()).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
