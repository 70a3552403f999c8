// The Bedrock simulator's prompt cache and its checkpoint rules, with signed raw Converse bodies.
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signBedrockRequest } from '../../src/providers/bedrock/sign-bedrock-request.js';
import { startBedrockSimulator, type BedrockSimulator } from './bedrock-simulator.js';

let simulator: BedrockSimulator;

beforeAll(async () => {
  simulator = await startBedrockSimulator();
});
afterAll(() => simulator.close());

const claude = 'anthropic.claude-sonnet-4-5-20250929-v1:0';
const point = { cachePoint: { type: 'default' } };
/** A system prompt over the 1,024-token minimum (one token per word), distinct per test. */
const longSystem = (tag: string) => Array.from({ length: 1100 }, (_, index) => `${tag}${index}`).join(' ');

async function converse(modelId: string, body: object) {
  const [accessKeyId = '', secretAccessKey = ''] = simulator.channelSecret.split(':');
  const signed = await signBedrockRequest({
    url: `${simulator.url}/model/${encodeURIComponent(modelId)}/converse`,
    body: JSON.stringify(body),
    region: 'us-east-1',
    credentials: { accessKeyId, secretAccessKey },
    signingTime: Date.now(),
  });
  const response = await request(signed.url, { method: 'POST', headers: signed.headers, body: signed.body });
  return { status: response.statusCode, body: (await response.body.json()) as Record<string, unknown> };
}

function usageOf(answer: { body: Record<string, unknown> }) {
  return answer.body.usage as Record<string, number>;
}

describe('the Bedrock simulator prompt cache', () => {
  it('writes the prefix at a checkpoint and reads it back when the next turn repeats it', async () => {
    const system = [{ text: longSystem('a') }, point];
    const firstTurn = [{ role: 'user', content: [{ text: 'Step one please' }, point] }];
    const first = await converse(claude, { system, messages: firstTurn });
    expect(first.status).toBe(200);
    expect(usageOf(first)).toMatchObject({ cacheReadInputTokens: 0, cacheWriteInputTokens: 1103, inputTokens: 0 });
    const second = await converse(claude, {
      system,
      messages: [
        { role: 'user', content: [{ text: 'Step one please' }] },
        { role: 'assistant', content: [{ text: 'Done' }] },
        { role: 'user', content: [{ text: 'Step two' }, point] },
      ],
    });
    expect(usageOf(second)).toMatchObject({ cacheReadInputTokens: 1103, cacheWriteInputTokens: 3, inputTokens: 0 });
    expect(usageOf(second).totalTokens).toBe(1106 + (usageOf(second).outputTokens ?? 0));
  });

  it('caches nothing below the minimum and nothing without checkpoints, and keys the cache by model', async () => {
    const short = { system: [{ text: 'Be brief.' }, point], messages: [{ role: 'user', content: [{ text: 'Hi' }] }] };
    expect(usageOf(await converse(claude, short))).toMatchObject({ cacheReadInputTokens: 0, cacheWriteInputTokens: 0 });
    const plain = { system: [{ text: longSystem('b') }], messages: [{ role: 'user', content: [{ text: 'Hi' }] }] };
    expect(usageOf(await converse(claude, plain))).not.toHaveProperty('cacheReadInputTokens');
    const marked = { ...plain, system: [{ text: longSystem('b') }, point] };
    await converse(claude, marked);
    expect(usageOf(await converse('us.amazon.nova-pro-v1:0', marked))).toMatchObject({ cacheReadInputTokens: 0 });
    expect(usageOf(await converse(claude, marked))).toMatchObject({ cacheReadInputTokens: 1100 });
  });

  it.each([
    [
      'more than four checkpoints',
      claude,
      {
        system: [{ text: 'a' }, point],
        messages: [
          {
            role: 'user',
            content: [{ text: 'b' }, point, { text: 'c' }, point, { text: 'd' }, point, { text: 'e' }, point],
          },
        ],
      },
      /at most 4 cachePoint/,
    ],
    [
      'a checkpoint before any content',
      claude,
      { messages: [{ role: 'user', content: [point, { text: 'b' }] }] },
      /must follow content/,
    ],
    [
      'a checkpoint of another type',
      claude,
      { messages: [{ role: 'user', content: [{ text: 'b' }, { cachePoint: { type: 'long' } }] }] },
      /must be default/,
    ],
    [
      'a checkpoint for a model without prompt caching',
      'anthropic.claude-3-5-sonnet-20240620-v1:0',
      { messages: [{ role: 'user', content: [{ text: 'b' }, point] }] },
      /did not allow prompt caching/,
    ],
    [
      'a tools checkpoint for Nova',
      'amazon.nova-lite-v1:0',
      {
        messages: [{ role: 'user', content: [{ text: 'b' }] }],
        toolConfig: { tools: [{ toolSpec: { name: 'f', inputSchema: { json: { type: 'object' } } } }, point] },
      },
      /did not allow prompt caching/,
    ],
  ])('refuses %s with a ValidationException', async (_name, modelId, body, message) => {
    const answer = await converse(modelId, body);
    expect(answer.status).toBe(400);
    expect(String(answer.body.message)).toMatch(message);
  });
});
