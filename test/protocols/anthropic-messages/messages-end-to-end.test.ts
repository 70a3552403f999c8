// POST /v1/messages answered through channels: Anthropic channels by pass-through, others translated, with the official
// Anthropic SDK as the client; count_tokens exact from an Anthropic channel.
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../../helpers/start-test-gateway.js';
import { startAnthropicSimulator, type AnthropicSimulator } from '../../simulators/anthropic-simulator.js';
import { startOpenAiSimulator, type OpenAiSimulator } from '../../simulators/openai-simulator.js';

const anthropicSecret = 'sk-ant-messages-e2e-upstream';
const openAiSecret = 'sk-openai-messages-e2e-upstream';

/** Every channel protocol a Messages client must be served by, with the model that routes to it. */
const targets = [
  { name: 'anthropic (pass-through)', model: 'claude-via-anthropic' },
  { name: 'openai (translated)', model: 'claude-via-openai' },
] as const;

let gateway: TestGateway;
let anthropicSimulator: AnthropicSimulator;
let openAiSimulator: OpenAiSimulator;
let client: Anthropic;

beforeAll(async () => {
  anthropicSimulator = await startAnthropicSimulator({ apiKey: anthropicSecret });
  openAiSimulator = await startOpenAiSimulator({ apiKey: openAiSecret });
  gateway = await startTestGateway();
  await gateway.createChannel({
    baseUrl: anthropicSimulator.url,
    secret: anthropicSecret,
    models: ['claude-via-anthropic', 'claude-overloaded'],
    // `sim-error-529` makes the simulator answer 529 overloaded_error.
    modelMapping: { 'claude-via-anthropic': 'claude-sim', 'claude-overloaded': 'sim-error-529' },
    protocol: 'anthropic',
    settings: { apiVersion: '2023-06-01' },
  });
  await gateway.createChannel({
    baseUrl: openAiSimulator.url,
    secret: openAiSecret,
    models: ['claude-via-openai'],
    modelMapping: { 'claude-via-openai': 'gpt-4o' },
  });
  client = new Anthropic({ apiKey: (await gateway.createKey()).secret, baseURL: gateway.url, maxRetries: 0 });
});

afterAll(async () => {
  await gateway?.close();
  await anthropicSimulator?.close();
  await openAiSimulator?.close();
});

const weatherTool: Anthropic.Tool = {
  name: 'get_weather',
  description: 'Weather by city',
  input_schema: { type: 'object', properties: { query: { type: 'string' } } },
};

describe.each(targets)('POST /v1/messages through $name', ({ model }) => {
  const ask = (text: string) => ({ model, max_tokens: 200, messages: [{ role: 'user' as const, content: text }] });

  it('answers messages.create with the echo, the public model id and a gateway message id', async () => {
    const message = await client.messages.create({ ...ask('hello there'), system: 'Be brief.' });
    expect(message).toMatchObject({
      type: 'message',
      role: 'assistant',
      model,
      stop_reason: 'end_turn',
      content: [{ type: 'text', text: 'Echo: hello there' }],
    });
    expect(message.id).toMatch(/^msg_/);
    expect(message.usage.input_tokens).toBeGreaterThan(0);
    expect(message.usage.output_tokens).toBeGreaterThan(0);
  });

  it('streams the same message: messages.stream().finalMessage()', async () => {
    const streamed = await client.messages.stream(ask('hello there')).finalMessage();
    const created = await client.messages.create(ask('hello there'));
    expect(streamed.content).toEqual(created.content);
    // Token counts agree; a passed-through vendor may add fields (Anthropic's `service_tier`) to one shape only.
    const counts = ({
      input_tokens,
      output_tokens,
      cache_read_input_tokens,
      cache_creation_input_tokens,
    }: Anthropic.Usage) => ({ input_tokens, output_tokens, cache_read_input_tokens, cache_creation_input_tokens });
    expect(counts(streamed.usage)).toEqual(counts(created.usage));
    expect(streamed.stop_reason).toBe(created.stop_reason);
  });

  it('calls a tool and takes its result on the next turn, with tool_use ids Anthropic accepts', async () => {
    const first = await client.messages.create({
      ...ask('weather in Paris'),
      tools: [weatherTool],
      tool_choice: { type: 'any' },
    });
    expect(first.stop_reason).toBe('tool_use');
    const call = first.content.find((block): block is Anthropic.ToolUseBlock => block.type === 'tool_use')!;
    expect(call).toMatchObject({ name: 'get_weather' });
    expect(call.id).toMatch(/^[a-zA-Z0-9_-]+$/);
    const second = await client.messages.create({
      model,
      max_tokens: 200,
      tools: [weatherTool],
      messages: [
        { role: 'user', content: 'weather in Paris' },
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: 'sunny' }] },
      ],
    });
    expect(second.content).toEqual([{ type: 'text', text: expect.stringContaining('sunny') }]);
  });

  it('cuts at max_tokens with stop_reason max_tokens', async () => {
    const message = await client.messages.create({
      model,
      max_tokens: 2,
      messages: [{ role: 'user', content: 'one two three four five six' }],
    });
    expect(message.stop_reason).toBe('max_tokens');
  });

  it('stops at a stop sequence', async () => {
    const message = await client.messages.create({ ...ask('alpha beta gamma'), stop_sequences: ['gamma'] });
    // Anthropic names the sequence; chat vendors only say `stop`, which the codec answers as end_turn.
    expect(['stop_sequence', 'end_turn']).toContain(message.stop_reason);
    expect(message.content).toEqual([{ type: 'text', text: expect.not.stringContaining('gamma') }]);
  });
});

describe('POST /v1/messages pass-through to Anthropic channels', () => {
  it('forwards anthropic-version and anthropic-beta unchanged and keeps ?beta=true working', async () => {
    anthropicSimulator.reset();
    await client.messages.create(
      { model: 'claude-via-anthropic', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] },
      { headers: { 'anthropic-beta': 'interleaved-thinking-2025-05-14' }, query: { beta: 'true' } },
    );
    const sent = anthropicSimulator.requests.at(-1)!;
    expect(sent.headers['anthropic-beta']).toBe('interleaved-thinking-2025-05-14');
  });

  it("counts tokens exactly at the Anthropic channel (the simulator counts words: the tokenizer's estimate differs)", async () => {
    anthropicSimulator.reset();
    const text = 'supercalifragilisticexpialidocious antidisestablishmentarianism pneumonoultramicroscopic';
    const counted = await client.messages.countTokens({
      model: 'claude-via-anthropic',
      messages: [{ role: 'user', content: text }],
    });
    expect(counted.input_tokens).toBe(3);
    expect(anthropicSimulator.requests.at(-1)?.path).toBe('/v1/messages/count_tokens');
    const estimated = await client.messages.countTokens({
      model: 'claude-via-openai',
      messages: [{ role: 'user', content: text }],
    });
    expect(estimated.input_tokens).toBeGreaterThan(3);
  });

  it('answers a vendor overload with 529 overloaded_error in Anthropic shape', async () => {
    const error = await client.messages
      .create({ model: 'claude-overloaded', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.InternalServerError);
    expect(error).toMatchObject({ status: 529, error: { type: 'error', error: { type: 'overloaded_error' } } });
  });
});
