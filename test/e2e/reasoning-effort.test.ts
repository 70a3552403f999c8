// A reasoning effort from every client protocol reaches the translated vendors as their own thinking setting (the
// simulators record what they were sent), and a refused parameter is named the way the client protocol names it.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startContractGateway, type ContractGateway } from '../contract/start-contract-gateway.js';
import { startAnthropicSimulator, type AnthropicSimulator } from '../simulators/anthropic-simulator.js';
import { startBedrockSimulator, type BedrockSimulator } from '../simulators/bedrock-simulator.js';
import { startGeminiSimulator, type GeminiSimulator } from '../simulators/gemini-simulator.js';

const anthropicSecret = 'sk-ant-effort-upstream';
const geminiSecret = 'AIza-effort-upstream';

let gateway: ContractGateway;
let anthropic: AnthropicSimulator;
let gemini: GeminiSimulator;
let bedrock: BedrockSimulator;
let openAiClient: OpenAI;
let anthropicClient: Anthropic;

beforeAll(async () => {
  [anthropic, gemini, bedrock] = await Promise.all([
    startAnthropicSimulator({ apiKey: anthropicSecret }),
    startGeminiSimulator({ apiKey: geminiSecret }),
    startBedrockSimulator(),
  ]);
  gateway = await startContractGateway();
  await gateway.createChannel({
    protocol: 'anthropic',
    baseUrl: anthropic.url,
    secret: anthropicSecret,
    settings: { apiVersion: '2023-06-01' },
    models: { 'claude-thinking': 'claude-sonnet-4-5-20250929', 'claude-old': 'claude-3-5-sonnet-20241022' },
  });
  await gateway.createChannel({
    protocol: 'gemini',
    baseUrl: gemini.url,
    secret: geminiSecret,
    models: { 'gemini-thinking': 'gemini-2.5-flash' },
  });
  await gateway.createChannel({
    protocol: 'bedrock',
    baseUrl: bedrock.url,
    secret: bedrock.channelSecret,
    settings: { region: bedrock.region },
    models: {
      'bedrock-claude': 'anthropic.claude-sonnet-4-5-20250929-v1:0',
      'bedrock-old-claude': 'anthropic.claude-3-5-sonnet-20240620-v1:0',
    },
  });
  const key = await gateway.createKey();
  openAiClient = new OpenAI({ apiKey: key, baseURL: gateway.baseURL, maxRetries: 0 });
  anthropicClient = new Anthropic({ apiKey: key, baseURL: gateway.url, maxRetries: 0 });
});

afterAll(async () => {
  await gateway?.close();
  await Promise.all([anthropic?.close(), gemini?.close(), bedrock?.close()]);
});

/** The body the vendor behind `model` received last. */
function lastUpstreamBody(model: 'claude-thinking' | 'gemini-thinking' | 'bedrock-claude'): Record<string, unknown> {
  const requests =
    model === 'claude-thinking' ? anthropic.requests : model === 'gemini-thinking' ? gemini.requests : bedrock.requests;
  return requests.at(-1)?.body as Record<string, unknown>;
}

/**
 * What each vendor must see for effort `low` (1,024 budget tokens). The public ids are not in the catalog and the
 * client gave no cap, so Claude's max_tokens is the budget plus 4,096 answer tokens.
 */
const lowEffortOnTheWire = {
  'claude-thinking': { thinking: { type: 'enabled', budget_tokens: 1_024 }, max_tokens: 1_024 + 4_096 },
  'gemini-thinking': { generationConfig: { thinkingConfig: { thinkingBudget: 1_024 } } },
  'bedrock-claude': {
    additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 1_024 } },
    inferenceConfig: { maxTokens: 1_024 + 4_096 },
  },
} as const;

describe.each(['claude-thinking', 'gemini-thinking', 'bedrock-claude'] as const)('reasoning effort to %s', (model) => {
  it("Responses `reasoning: {effort: 'low'}` arrives as the vendor's thinking setting", async () => {
    const response = await openAiClient.responses.create({ model, input: 'hello there', reasoning: { effort: 'low' } });
    expect(response.status).toBe('completed');
    expect(lastUpstreamBody(model)).toMatchObject(lowEffortOnTheWire[model]);
  });

  it('Messages `thinking` arrives as the vendor’s thinking setting (to Anthropic: passed through as sent)', async () => {
    const message = await anthropicClient.messages.create({
      model,
      max_tokens: 8_000,
      messages: [{ role: 'user', content: 'hello there' }],
      thinking: { type: 'enabled', budget_tokens: 2_048 },
    });
    expect(message.type).toBe('message');
    // A budget of 2,048 reads as effort `low`, which each translated vendor gets as its low setting under the client's cap.
    const expected = {
      'claude-thinking': { thinking: { type: 'enabled', budget_tokens: 2_048 }, max_tokens: 8_000 },
      'gemini-thinking': { generationConfig: { maxOutputTokens: 8_000, thinkingConfig: { thinkingBudget: 1_024 } } },
      'bedrock-claude': {
        additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 1_024 } },
        inferenceConfig: { maxTokens: 8_000 },
      },
    }[model];
    expect(lastUpstreamBody(model)).toMatchObject(expected);
  });
});

/** The `param` of the 400 an OpenAI SDK call fails with. */
async function refusedParam(call: () => Promise<unknown>): Promise<string | null | undefined> {
  try {
    await call();
  } catch (error) {
    if (error instanceof OpenAI.APIError && error.status === 400) return error.param;
    throw error;
  }
  throw new Error('expected a 400');
}

describe('a model that cannot reason', () => {
  it('answers Messages `thinking` without it (optional in Messages; Claude Code sends it to every model)', async () => {
    const before = bedrock.requests.length;
    const message = await anthropicClient.messages.create({
      model: 'bedrock-old-claude',
      max_tokens: 4_096,
      messages: [{ role: 'user', content: 'hi' }],
      thinking: { type: 'enabled', budget_tokens: 1_024 },
    });
    expect(message.content[0]).toMatchObject({ type: 'text' });
    expect(bedrock.requests.length).toBe(before + 1);
    const sent = bedrock.requests.at(-1)?.body as Record<string, unknown>;
    expect(sent.additionalModelRequestFields).toBeUndefined();
    expect(sent.inferenceConfig).toEqual({ maxTokens: 4_096 });
  });
});

describe('a refused parameter is named in the client protocol’s own terms', () => {
  it('a reasoning effort for a model that cannot think: `reasoning.effort` for Responses, `reasoning_effort` for chat', async () => {
    for (const model of ['claude-old', 'bedrock-old-claude']) {
      expect(
        await refusedParam(() => openAiClient.responses.create({ model, input: 'hi', reasoning: { effort: 'low' } })),
      ).toBe('reasoning.effort');
      expect(
        await refusedParam(() =>
          openAiClient.chat.completions.create({
            model,
            messages: [{ role: 'user', content: 'hi' }],
            reasoning_effort: 'low',
          }),
        ),
      ).toBe('reasoning_effort');
    }
  });

  it('an output format the vendor cannot honour: `text.format` for Responses, `response_format` for chat', async () => {
    expect(
      await refusedParam(() =>
        openAiClient.responses.create({
          model: 'bedrock-claude',
          input: 'hi',
          // A JSON object is a forced tool call on Bedrock, which cannot be combined with the client's own tools.
          tools: [{ type: 'function', name: 'get_time', parameters: { type: 'object' }, strict: false }],
          text: { format: { type: 'json_object' } },
        }),
      ),
    ).toBe('text.format');
    expect(
      await refusedParam(() =>
        openAiClient.chat.completions.create({
          model: 'bedrock-claude',
          messages: [{ role: 'user', content: 'hi' }],
          tools: [{ type: 'function', function: { name: 'get_time' } }],
          response_format: { type: 'json_object' },
        }),
      ),
    ).toBe('response_format');
  });

  it('a Messages client reads `thinking` in the message of its Anthropic-shaped 400', async () => {
    const failure = await anthropicClient.messages
      .create({
        model: 'bedrock-claude',
        max_tokens: 4_096,
        messages: [{ role: 'user', content: 'hi' }],
        thinking: { type: 'enabled', budget_tokens: 1_024 },
        tools: [{ name: 'get_weather', input_schema: { type: 'object', properties: {} } }],
        tool_choice: { type: 'any' },
      })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Anthropic.BadRequestError);
    const message = (failure as InstanceType<typeof Anthropic.BadRequestError>).message;
    expect(message).toContain('`thinking`');
    expect(message).not.toContain('reasoning_effort');
  });
});
