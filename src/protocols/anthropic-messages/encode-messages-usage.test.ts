import { describe, expect, it } from 'vitest';
import { encodeMessagesUsage } from './encode-messages-usage.js';

describe('encodeMessagesUsage', () => {
  it('reports cache reads and writes apart from the uncached input, the writes split by TTL as Anthropic does', () => {
    const usage = {
      inputTokens: 1000,
      cacheReadInputTokens: 700,
      cacheWriteInputTokens: 200,
      cacheWriteOneHourInputTokens: 50,
      outputTokens: 9,
      reasoningTokens: 0,
    };
    expect(encodeMessagesUsage(usage)).toEqual({
      input_tokens: 100,
      cache_creation_input_tokens: 200,
      cache_creation: { ephemeral_5m_input_tokens: 150, ephemeral_1h_input_tokens: 50 },
      cache_read_input_tokens: 700,
      output_tokens: 9,
    });
  });

  it('leaves the TTL split out when nothing was written at 1 hour', () => {
    const usage = {
      inputTokens: 30,
      cacheReadInputTokens: 0,
      cacheWriteInputTokens: 10,
      outputTokens: 1,
      reasoningTokens: 0,
    };
    expect(encodeMessagesUsage(usage)).toEqual({
      input_tokens: 20,
      cache_creation_input_tokens: 10,
      cache_read_input_tokens: 0,
      output_tokens: 1,
    });
  });
});
