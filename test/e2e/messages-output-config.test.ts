// Messages `output_config` through every vendor, as Claude Code sends it (`thinking: {type: "adaptive"}` with
// `output_config: {effort}`, `max_tokens: 32000`): the effort reaches each vendor as its own reasoning control at the
// same level (not the `medium` that `adaptive` alone means), and `output_config.format` rides along; to Anthropic
// channels the body goes through as sent, on the default API version 2023-06-01 too.
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startContractGateway, type ContractGateway } from '../contract/start-contract-gateway.js';
import { startAnthropicSimulator, type AnthropicSimulator } from '../simulators/anthropic-simulator.js';
import { startBedrockSimulator, type BedrockSimulator } from '../simulators/bedrock-simulator.js';
import { startGeminiSimulator, type GeminiSimulator } from '../simulators/gemini-simulator.js';
import { startOpenAiSimulator, type OpenAiSimulator } from '../simulators/openai-simulator.js';

const openAiSecret = 'sk-output-config-upstream';
const anthropicSecret = 'sk-ant-output-config-upstream';
const geminiSecret = 'AIza-output-config-upstream';

let gateway: ContractGateway;
let openAi: OpenAiSimulator;
let anthropic: AnthropicSimulator;
let gemini: GeminiSimulator;
let bedrock: BedrockSimulator;
let client: Anthropic;

/** Public model id → the simulator behind it. */
type VendorModel = 'gpt-5' | 'claude-sonnet-4-5' | 'gemini-2.5-flash' | 'gemini-3-pro-preview' | 'bedrock-claude';

beforeAll(async () => {
  [openAi, anthropic, gemini, bedrock] = await Promise.all([
    startOpenAiSimulator({ apiKey: openAiSecret }),
    startAnthropicSimulator({ apiKey: anthropicSecret }),
    startGeminiSimulator({ apiKey: geminiSecret }),
    startBedrockSimulator(),
  ]);
  gateway = await startContractGateway();
  await gateway.createChannel({
    protocol: 'openai',
    baseUrl: openAi.url,
    secret: openAiSecret,
    models: { 'gpt-5': 'gpt-5' },
  });
  await gateway.createChannel({
    protocol: 'anthropic',
    baseUrl: anthropic.url,
    secret: anthropicSecret,
    settings: { apiVersion: '2023-06-01' },
    models: { 'claude-sonnet-4-5': 'claude-sonnet-4-5-20250929' },
  });
  await gateway.createChannel({
    protocol: 'gemini',
    baseUrl: gemini.url,
    secret: geminiSecret,
    models: {
      'gemini-2.5-flash': 'gemini-2.5-flash',
      'gemini-3-pro-preview': 'gemini-3-pro-preview',
      // a name the catalog does not know that the adapter knows cannot think
      'gemini-old': 'gemini-1.0-sim',
    },
  });
  await gateway.createChannel({
    protocol: 'bedrock',
    baseUrl: bedrock.url,
    secret: bedrock.channelSecret,
    settings: { region: bedrock.region },
    models: { 'bedrock-claude': 'anthropic.claude-sonnet-4-5-20250929-v1:0' },
  });
  client = new Anthropic({ apiKey: await gateway.createKey(), baseURL: gateway.url, maxRetries: 0 });
});

afterAll(async () => {
  await gateway?.close();
  await Promise.all([openAi?.close(), anthropic?.close(), gemini?.close(), bedrock?.close()]);
});

/** The body the vendor behind `model` received last. */
function lastUpstreamBody(model: VendorModel): Record<string, unknown> {
  const requests = {
    'gpt-5': openAi.requests,
    'claude-sonnet-4-5': anthropic.requests,
    'gemini-2.5-flash': gemini.requests,
    'gemini-3-pro-preview': gemini.requests,
    'bedrock-claude': bedrock.requests,
  }[model];
  return requests.at(-1)?.body as Record<string, unknown>;
}

/** Claude Code's request for a model it does not know (always streamed), with the effort asked for. */
async function sendAsClaudeCode(model: VendorModel, effort: 'low' | 'high' | 'max'): Promise<Anthropic.Message> {
  return client.messages
    .stream({
      model,
      max_tokens: 32_000,
      messages: [{ role: 'user', content: 'hello there' }],
      thinking: { type: 'adaptive' },
      output_config: { effort },
    })
    .finalMessage();
}

/** What each vendor must receive for `effort: high`: its high setting, never `adaptive`'s medium. */
const highEffortOnTheWire: Record<VendorModel, Record<string, unknown>> = {
  'gpt-5': { reasoning_effort: 'high' },
  'claude-sonnet-4-5': { thinking: { type: 'adaptive' }, output_config: { effort: 'high' }, max_tokens: 32_000 },
  'gemini-2.5-flash': { generationConfig: { thinkingConfig: { thinkingBudget: 24_576 } } },
  'gemini-3-pro-preview': { generationConfig: { thinkingConfig: { thinkingLevel: 'HIGH' } } },
  'bedrock-claude': {
    additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 24_576 } },
    inferenceConfig: { maxTokens: 32_000 },
  },
};

describe.each(Object.keys(highEffortOnTheWire) as VendorModel[])('output_config.effort to %s', (model) => {
  it("Claude Code's `effort: high` arrives as the vendor's high reasoning setting", async () => {
    const message = await sendAsClaudeCode(model, 'high');
    expect(message.type).toBe('message');
    expect(lastUpstreamBody(model)).toMatchObject(highEffortOnTheWire[model]);
  });
});

describe('the ends of the effort scale', () => {
  it('`max` is the highest each vendor knows: OpenAI `xhigh`, Claude a budget just under max_tokens', async () => {
    await sendAsClaudeCode('gpt-5', 'max');
    expect(lastUpstreamBody('gpt-5').reasoning_effort).toBe('xhigh');
    await sendAsClaudeCode('bedrock-claude', 'max');
    expect(lastUpstreamBody('bedrock-claude').additionalModelRequestFields).toEqual({
      thinking: { type: 'enabled', budget_tokens: 31_999 },
    });
  });

  it('`low` is low everywhere (Gemini 3 `LOW`), and `thinking: disabled` wins over an effort', async () => {
    await sendAsClaudeCode('gemini-3-pro-preview', 'low');
    expect(lastUpstreamBody('gemini-3-pro-preview')).toMatchObject({
      generationConfig: { thinkingConfig: { thinkingLevel: 'LOW' } },
    });
    await client.messages.create({
      model: 'gemini-2.5-flash',
      max_tokens: 1_000,
      messages: [{ role: 'user', content: 'hello there' }],
      thinking: { type: 'disabled' },
      output_config: { effort: 'high' },
    });
    expect(lastUpstreamBody('gemini-2.5-flash')).toMatchObject({
      generationConfig: { thinkingConfig: { thinkingBudget: 0 } },
    });
  });
});

describe('a refused effort is named where the client set it', () => {
  it('`output_config.effort` for a model that cannot think, in the Anthropic-shaped 400', async () => {
    const failure = await client.messages
      .create({
        model: 'gemini-old',
        max_tokens: 1_000,
        messages: [{ role: 'user', content: 'hello there' }],
        output_config: { effort: 'high' },
      })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Anthropic.BadRequestError);
    const message = (failure as InstanceType<typeof Anthropic.BadRequestError>).message;
    expect(message).toContain('`output_config.effort`');
    expect(message).not.toContain('reasoning_effort');
  });
});

describe('output_config.format with an effort', () => {
  const schema = {
    type: 'object',
    properties: { echo: { type: 'string' } },
    required: ['echo'],
    additionalProperties: false,
  };

  it.each(Object.keys(highEffortOnTheWire) as VendorModel[])(
    'reaches %s with both, and the answer is the JSON the schema asks for',
    async (model) => {
      const message = await client.messages
        .stream({
          model,
          max_tokens: 32_000,
          messages: [{ role: 'user', content: 'hello there' }],
          output_config: { effort: 'high', format: { type: 'json_schema', schema } },
        })
        .finalMessage();
      const text = message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
      expect(JSON.parse(text)).toEqual({ echo: 'hello there' });
      const body = lastUpstreamBody(model);
      expect(body).toMatchObject(
        {
          'gpt-5': {
            reasoning_effort: 'high',
            response_format: { type: 'json_schema', json_schema: { name: 'output', schema, strict: true } },
          },
          'claude-sonnet-4-5': { output_config: { effort: 'high', format: { type: 'json_schema', schema } } },
          'gemini-2.5-flash': {
            generationConfig: { responseMimeType: 'application/json', responseJsonSchema: schema },
          },
          'gemini-3-pro-preview': {
            generationConfig: { responseMimeType: 'application/json', responseJsonSchema: schema },
          },
          'bedrock-claude': {
            outputConfig: {
              textFormat: { type: 'json_schema', structure: { jsonSchema: { schema: JSON.stringify(schema) } } },
            },
          },
        }[model],
      );
    },
  );
});
