// Issue 39, item 6: prompt caching survives the gateway. A replayed 20-turn agent session (each turn the previous ones
// plus one new user message) through each client protocol to two Anthropic channels of the same priority and weight
// stays on one channel (cache-sticky routing), is marked for caching (by the client on /v1/messages, by the gateway on
// chat and Responses), and reaches ≥ 90 % of its input as cache reads in the usage the client gets. The same session to
// two Bedrock channels of a Claude model gets the gateway's Converse cache checkpoints and the same share of reads.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startContractGateway, type ContractGateway } from '../contract/start-contract-gateway.js';
import { startAnthropicSimulator, type AnthropicSimulator } from '../simulators/anthropic-simulator.js';
import { startBedrockSimulator, type BedrockSimulator } from '../simulators/bedrock-simulator.js';

const secret = 'sk-ant-prompt-caching-upstream';
const model = 'claude-sonnet-4-5';
const bedrockModel = 'claude-sonnet-4-5-on-bedrock';
const turns = 20;

let gateway: ContractGateway;
let first: AnthropicSimulator;
let second: AnthropicSimulator;
let bedrock: BedrockSimulator[];
let apiKey: string;

beforeAll(async () => {
  [first, second] = await Promise.all([
    startAnthropicSimulator({ apiKey: secret }),
    startAnthropicSimulator({ apiKey: secret }),
  ]);
  bedrock = await Promise.all([startBedrockSimulator(), startBedrockSimulator()]);
  gateway = await startContractGateway();
  for (const simulator of bedrock)
    await gateway.createChannel({
      protocol: 'bedrock',
      baseUrl: simulator.url,
      secret: simulator.channelSecret,
      settings: { region: simulator.region },
      models: { [bedrockModel]: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0' },
    });
  for (const simulator of [first, second])
    await gateway.createChannel({
      protocol: 'anthropic',
      baseUrl: simulator.url,
      secret,
      settings: { apiVersion: '2023-06-01' },
      models: { [model]: 'claude-sonnet-4-5-20250929' },
    });
  apiKey = await gateway.createKey();
});

afterAll(async () => {
  await gateway?.close();
  await Promise.all([first?.close(), second?.close(), ...(bedrock ?? []).map((simulator) => simulator.close())]);
});

/** An agent's system prompt longer than Anthropic's 1024-token minimum, distinct per session. */
function systemPrompt(session: string): string {
  return Array.from({ length: 1200 }, (_, index) => `${session}-rule-${index}`).join(' ');
}

/** What one turn's usage said: all input tokens, and those read from the cache. */
interface TurnInput {
  input: number;
  cacheRead: number;
}

/** What replay needs of a simulator: its recorded requests. */
interface RecordingSimulator {
  requests: unknown[];
  reset(): void;
}

/** Replays the session, returns each turn's input usage and how many requests each simulator got. */
async function replay(
  runTurn: (turn: number) => Promise<TurnInput>,
  simulators: RecordingSimulator[] = [first, second],
) {
  for (const simulator of simulators) simulator.reset();
  const inputs: TurnInput[] = [];
  for (let turn = 1; turn <= turns; turn++) inputs.push(await runTurn(turn));
  const input = inputs.reduce((sum, usage) => sum + usage.input, 0);
  const cacheRead = inputs.reduce((sum, usage) => sum + usage.cacheRead, 0);
  return {
    inputs,
    share: cacheRead / input,
    requests: simulators.map((simulator) => simulator.requests.length).sort(),
  };
}

function question(turn: number): string {
  return `Please do step ${turn} of the task now`;
}

describe('a replayed 20-turn agent session to two Anthropic channels', () => {
  it('reads ≥ 90 % of its input from the cache through /v1/messages (breakpoint on the last message, as Claude Code)', async () => {
    const client = new Anthropic({ apiKey, baseURL: gateway.url, maxRetries: 0 });
    const system = systemPrompt('messages');
    const history: Anthropic.MessageParam[] = [];
    const result = await replay(async (turn) => {
      const asked: Anthropic.MessageParam = { role: 'user', content: [{ type: 'text', text: question(turn) }] };
      const marked: Anthropic.MessageParam = {
        role: 'user',
        content: [{ type: 'text', text: question(turn), cache_control: { type: 'ephemeral' } }],
      };
      const answer = await client.messages.create({
        model,
        max_tokens: 200,
        system,
        messages: [...history, marked],
      });
      history.push(asked, { role: 'assistant', content: answer.content.filter((block) => block.type === 'text') });
      const usage = answer.usage;
      return {
        input: usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0),
        cacheRead: usage.cache_read_input_tokens ?? 0,
      };
    });
    expect(result.requests).toEqual([0, turns]);
    expect(result.inputs[0]?.cacheRead).toBe(0);
    expect(result.inputs.slice(1).every((usage) => usage.cacheRead > 0)).toBe(true);
    expect(result.share).toBeGreaterThanOrEqual(0.9);
  });

  it('reads ≥ 90 % through /v1/chat/completions: the gateway marks the system and the last message', async () => {
    const client = new OpenAI({ apiKey, baseURL: gateway.baseURL, maxRetries: 0 });
    const history: OpenAI.ChatCompletionMessageParam[] = [{ role: 'system', content: systemPrompt('chat') }];
    const result = await replay(async (turn) => {
      history.push({ role: 'user', content: question(turn) });
      const completion = await client.chat.completions.create({ model, messages: history });
      history.push({ role: 'assistant', content: completion.choices[0]?.message.content ?? '' });
      return {
        input: completion.usage?.prompt_tokens ?? 0,
        cacheRead: completion.usage?.prompt_tokens_details?.cached_tokens ?? 0,
      };
    });
    expect(result.requests).toEqual([0, turns]);
    const marks = JSON.stringify([...first.requests, ...second.requests].at(-1)?.body).match(/"cache_control"/g);
    expect(marks).toHaveLength(2);
    expect(result.share).toBeGreaterThanOrEqual(0.9);
  });

  it('reads ≥ 90 % through /v1/responses, streamed, and says so in input_tokens_details.cached_tokens', async () => {
    const client = new OpenAI({ apiKey, baseURL: gateway.baseURL, maxRetries: 0 });
    const instructions = systemPrompt('responses');
    const history: OpenAI.Responses.ResponseInputItem[] = [];
    const result = await replay(async (turn) => {
      history.push({ role: 'user', content: question(turn) });
      const response = await client.responses
        .stream({ model, instructions, input: history, store: false })
        .finalResponse();
      history.push({ role: 'assistant', content: response.output_text });
      return {
        input: response.usage?.input_tokens ?? 0,
        cacheRead: response.usage?.input_tokens_details.cached_tokens ?? 0,
      };
    });
    expect(result.requests).toEqual([0, turns]);
    expect(result.share).toBeGreaterThanOrEqual(0.9);
  });
});

describe('the same session to two Bedrock channels of Claude Sonnet 4.5', () => {
  it('reads ≥ 90 % through /v1/messages: the marked system and last message get Converse checkpoints', async () => {
    const client = new Anthropic({ apiKey, baseURL: gateway.url, maxRetries: 0 });
    const system = systemPrompt('bedrock-messages');
    const history: Anthropic.MessageParam[] = [];
    const result = await replay(async (turn) => {
      const answer = await client.messages.create({
        model: bedrockModel,
        max_tokens: 200,
        system: [{ type: 'text', text: system, cache_control: { type: 'ephemeral' } }],
        messages: [
          ...history,
          { role: 'user', content: [{ type: 'text', text: question(turn), cache_control: { type: 'ephemeral' } }] },
        ],
      });
      history.push(
        { role: 'user', content: [{ type: 'text', text: question(turn) }] },
        { role: 'assistant', content: answer.content.filter((block) => block.type === 'text') },
      );
      const usage = answer.usage;
      return {
        input: usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0),
        cacheRead: usage.cache_read_input_tokens ?? 0,
      };
    }, bedrock);
    expect(result.requests).toEqual([0, turns]);
    expect(result.inputs[0]?.cacheRead).toBe(0);
    expect(result.inputs.slice(1).every((usage) => usage.cacheRead > 0)).toBe(true);
    expect(result.share).toBeGreaterThanOrEqual(0.9);
  });

  it('reads ≥ 90 % through /v1/chat/completions, with checkpoints after the system prompt and the last message', async () => {
    const client = new OpenAI({ apiKey, baseURL: gateway.baseURL, maxRetries: 0 });
    const history: OpenAI.ChatCompletionMessageParam[] = [{ role: 'system', content: systemPrompt('bedrock-chat') }];
    const result = await replay(async (turn) => {
      history.push({ role: 'user', content: question(turn) });
      const completion = await client.chat.completions.create({ model: bedrockModel, messages: history });
      history.push({ role: 'assistant', content: completion.choices[0]?.message.content ?? '' });
      return {
        input: completion.usage?.prompt_tokens ?? 0,
        cacheRead: completion.usage?.prompt_tokens_details?.cached_tokens ?? 0,
      };
    }, bedrock);
    expect(result.requests).toEqual([0, turns]);
    const last = bedrock.flatMap((simulator) => simulator.requests).at(-1)?.body as {
      system: unknown[];
      messages: Array<{ content: unknown[] }>;
    };
    expect(last.system.at(-1)).toEqual({ cachePoint: { type: 'default' } });
    expect(last.messages.at(-1)?.content.at(-1)).toEqual({ cachePoint: { type: 'default' } });
    expect(result.share).toBeGreaterThanOrEqual(0.9);
  });
});
