import { describe, expect, it } from 'vitest';
import { chatRequestToCanonical } from '../../protocols/openai-chat/chat-request-to-canonical.js';
import type { RemoteImage } from '../remote-image/remote-image.js';
import { encodeBedrockConverseBody } from './encode-bedrock-converse-body.js';
import { supportsBedrockPromptCaching } from './place-bedrock-cache-points.js';

const cachePoint = { cachePoint: { type: 'default' } };
const noRemoteImages = new Map<string, RemoteImage>();
const conversation = chatRequestToCanonical({
  model: 'claude',
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Weather in Paris?' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }],
    },
    { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
  ],
  tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: {} } } }],
});

function encodeFor(modelId: string) {
  return encodeBedrockConverseBody(conversation, noRemoteImages, { id: modelId, maxOutputTokens: undefined });
}

describe('Bedrock prompt-cache checkpoints', () => {
  it('marks the tools, the system prompt and the last message of Claude 4 (bare, cross-region or ARN ids)', () => {
    for (const modelId of [
      'anthropic.claude-sonnet-4-5-20250929-v1:0',
      'us.anthropic.claude-opus-4-1-20250805-v1:0',
      'arn:aws:bedrock:us-east-1:123456789012:inference-profile/global.anthropic.claude-haiku-4-5-20251001-v1:0',
    ]) {
      const body = encodeFor(modelId);
      expect(body.toolConfig?.tools.at(-1)).toEqual(cachePoint);
      expect(body.toolConfig?.tools).toHaveLength(2);
      expect(body.system).toEqual([{ text: 'Be brief.' }, cachePoint]);
      expect(body.messages.at(-1)?.content.at(-1)).toEqual(cachePoint);
      expect(JSON.stringify(body).match(/cachePoint/g)).toHaveLength(3);
    }
  });

  it('marks Nova in the system prompt and messages only, where Nova takes checkpoints', () => {
    const body = encodeFor('us.amazon.nova-pro-v1:0');
    expect(body.toolConfig?.tools).toHaveLength(1);
    expect(body.system?.at(-1)).toEqual(cachePoint);
    expect(body.messages.at(-1)?.content.at(-1)).toEqual(cachePoint);
  });

  it('leaves models without prompt caching unmarked', () => {
    for (const modelId of ['anthropic.claude-3-5-sonnet-20240620-v1:0', 'meta.llama3-70b-instruct-v1:0', ''])
      expect(JSON.stringify(encodeFor(modelId))).not.toContain('cachePoint');
  });

  it('knows the caching families', () => {
    expect(supportsBedrockPromptCaching('anthropic.claude-3-7-sonnet-20250219-v1:0')).toBe(true);
    expect(supportsBedrockPromptCaching('anthropic.claude-3-5-haiku-20241022-v1:0')).toBe(true);
    expect(supportsBedrockPromptCaching('amazon.nova-micro-v1:0')).toBe(true);
    expect(supportsBedrockPromptCaching('amazon.titan-text-express-v1')).toBe(false);
    expect(supportsBedrockPromptCaching('anthropic.claude-3-haiku-20240307-v1:0')).toBe(false);
  });
});
