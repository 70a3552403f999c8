import { describe, expect, it } from 'vitest';
import { extractUsageFromJsonText, parseOpenAiUsage } from './parse-openai-usage.js';

describe('extractUsageFromJsonText', () => {
  it('reads usage with nested details without parsing the rest', () => {
    const body = JSON.stringify({
      data: [{ embedding: 'AAAA"usage"{' }],
      usage: {
        prompt_tokens: 12,
        completion_tokens: 5,
        total_tokens: 17,
        prompt_tokens_details: { cached_tokens: 4 },
        completion_tokens_details: { reasoning_tokens: 2 },
      },
    });
    expect(extractUsageFromJsonText(body)).toEqual({
      promptTokens: 12,
      completionTokens: 5,
      totalTokens: 17,
      cachedPromptTokens: 4,
      reasoningTokens: 2,
    });
  });

  it('returns undefined when there is no usage', () => {
    expect(extractUsageFromJsonText('{"created":1,"data":[]}')).toBeUndefined();
  });

  it('computes a missing total and reads the input/output naming', () => {
    expect(parseOpenAiUsage({ input_tokens: 3, output_tokens: 4 })).toMatchObject({
      promptTokens: 3,
      completionTokens: 4,
      totalTokens: 7,
    });
  });

  it('ignores negative or non-numeric counts', () => {
    expect(parseOpenAiUsage({ prompt_tokens: -1, completion_tokens: 'x' })).toMatchObject({
      promptTokens: 0,
      completionTokens: 0,
    });
  });

  it('reads the cache reads and writes OpenAI-wire vendors report under other names', () => {
    // DeepSeek: cache reads as prompt_cache_hit_tokens.
    expect(
      parseOpenAiUsage({
        prompt_tokens: 10,
        completion_tokens: 1,
        prompt_cache_hit_tokens: 6,
        prompt_cache_miss_tokens: 4,
      }),
    ).toMatchObject({ cachedPromptTokens: 6 });
    // OpenRouter: cache writes next to OpenAI's cached_tokens.
    expect(
      parseOpenAiUsage({
        prompt_tokens: 194,
        completion_tokens: 2,
        prompt_tokens_details: { cached_tokens: 50, cache_write_tokens: 100 },
      }),
    ).toMatchObject({ cachedPromptTokens: 50, cacheWritePromptTokens: 100 });
    // The input_tokens naming (Responses, gpt-image-1).
    expect(
      parseOpenAiUsage({ input_tokens: 30, output_tokens: 2, input_tokens_details: { cached_tokens: 20 } }),
    ).toMatchObject({ promptTokens: 30, cachedPromptTokens: 20 });
  });
});
