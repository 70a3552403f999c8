import { describe, expect, it } from 'vitest';
import { estimateMessagesRequest } from '../protocols/anthropic-messages/estimate-messages-request.js';
import { parseMessagesRequest } from '../protocols/anthropic-messages/parse-messages-request.js';
import { parseAnthropicUsage } from '../providers/anthropic/parse-anthropic-usage.js';
import type { CatalogModel } from '../routing/catalog-model.js';
import { emptyBillableUsage, type BillableUsage } from './billable-usage.js';
import { calculateRequestCost } from './calculate-request-cost.js';
import { estimateWorstCaseUsage } from './estimate-worst-case-usage.js';
import { mapCatalogPrices, oneHourCacheWritePerMillion, type ModelPrice } from './model-price.js';
import type { MeteredRequest } from './request-accounting.js';
import { costDenominator, costOfPricing, listCostComponents, priceRequest } from './request-pricing.js';

/** Claude Sonnet's list prices: input $3, cache reads $0.30, 5-minute writes $3.75, 1-hour writes $6, output $15. */
const sonnet: ModelPrice = mapCatalogPrices('claude-sonnet', {
  inputPerMillion: 3_000_000,
  cachedInputPerMillion: 300_000,
  cacheWritePerMillion: 3_750_000,
  cacheWriteOneHourPerMillion: 6_000_000,
  outputPerMillion: 15_000_000,
});

/** 10,000 prompt tokens: 2,000 read from the cache, 5,000 written (3,001 of them for 1 hour), 3,000 uncached. */
const usage: BillableUsage = {
  ...emptyBillableUsage,
  promptTokens: 10_000,
  cachedPromptTokens: 2_000,
  cacheWritePromptTokens: 5_000,
  cacheWriteOneHourPromptTokens: 3_001,
  completionTokens: 1_000,
};

describe('1-hour cache writes', () => {
  it('are priced at their own rate, 5-minute writes at theirs, to the exact micro-unit', () => {
    // 3,000 × 3 + 2,000 × 0.3 + 1,999 × 3.75 + 3,001 × 6 + 1,000 × 15 = 9,000 + 600 + 7,496.25 + 18,006 + 15,000
    // = 50,102.25, rounded up once
    expect(calculateRequestCost(usage, sonnet)).toBe(50_103);
    // 50,102.25 × 1.333333 = 66,802.98…, rounded up once
    expect(calculateRequestCost(usage, sonnet, 1_333_333)).toBe(66_803);
    // Priced at the 5-minute rate they would cost 3,001 × 2.25 = 6,752.25 less.
    expect(calculateRequestCost({ ...usage, cacheWriteOneHourPromptTokens: 0 }, sonnet)).toBe(43_350);
  });

  it("keep a pricing breakdown that adds up exactly to the cost, with the 1-hour writes' own line", () => {
    const pricing = priceRequest(usage, sonnet, 1_333_333);
    expect(pricing.cacheWriteOneHourPerMillion).toBe(6_000_000);
    const tokens = {
      promptTokens: usage.promptTokens,
      cachedTokens: usage.cachedPromptTokens,
      cacheWriteTokens: usage.cacheWritePromptTokens,
      cacheWriteOneHourTokens: usage.cacheWriteOneHourPromptTokens,
      completionTokens: usage.completionTokens,
    };
    const components = listCostComponents(tokens, pricing);
    const oneHour = components.find((component) => component.kind === 'cacheWriteOneHour');
    expect(oneHour?.numerator).toBe(3_001n * 6_000_000n * 60_000n * 1_333_333n);
    const fiveMinutes = components.find((component) => component.kind === 'cacheWrite');
    expect(fiveMinutes?.numerator).toBe(1_999n * 3_750_000n * 60_000n * 1_333_333n);
    const sum = components.reduce((total, component) => total + component.numerator, 0n);
    expect(Number((sum + costDenominator - 1n) / costDenominator)).toBe(costOfPricing(tokens, pricing));
    expect(costOfPricing(tokens, pricing)).toBe(66_803);
  });

  it('cap 1-hour writes at the cache writes, and writes at the prompt', () => {
    const over = { ...usage, cacheWriteOneHourPromptTokens: 9_000 };
    expect(calculateRequestCost(over, sonnet)).toBe(
      calculateRequestCost({ ...usage, cacheWriteOneHourPromptTokens: 5_000 }, sonnet),
    );
  });

  it("default to twice the input price (Anthropic's list rule) when a price names none", () => {
    const withoutOneHour = mapCatalogPrices('other', { inputPerMillion: 1_000_000, outputPerMillion: 2_000_000 });
    expect(withoutOneHour.cacheWriteOneHourPerMillion).toBeUndefined();
    expect(oneHourCacheWritePerMillion(withoutOneHour)).toBe(2_000_000);
    expect(priceRequest(usage, withoutOneHour, 1_000_000).cacheWriteOneHourPerMillion).toBe(2_000_000);
  });

  it("are read from Anthropic's usage by TTL, the breakdown never counting less than the total", () => {
    expect(
      parseAnthropicUsage({
        input_tokens: 10,
        cache_creation_input_tokens: 30,
        cache_read_input_tokens: 5,
        cache_creation: { ephemeral_5m_input_tokens: 10, ephemeral_1h_input_tokens: 20 },
        output_tokens: 7,
      }),
    ).toEqual({
      inputTokens: 45,
      cacheReadInputTokens: 5,
      cacheWriteInputTokens: 30,
      cacheWriteOneHourInputTokens: 20,
      outputTokens: 7,
      reasoningTokens: 0,
    });
    const breakdownOnly = parseAnthropicUsage({
      input_tokens: 1,
      cache_creation: { ephemeral_5m_input_tokens: 2, ephemeral_1h_input_tokens: 3 },
      output_tokens: 1,
    });
    expect(breakdownOnly).toMatchObject({ inputTokens: 6, cacheWriteInputTokens: 5, cacheWriteOneHourInputTokens: 3 });
    expect(parseAnthropicUsage({ input_tokens: 1, output_tokens: 1 })).not.toHaveProperty(
      'cacheWriteOneHourInputTokens',
    );
  });
});

describe('the hold of a Messages request that asks for prompt caching', () => {
  const model: CatalogModel = {
    id: 'claude',
    ownedBy: 'anthropic',
    kind: 'chat',
    created: 0,
    inputModalities: ['text'],
  };
  const body = { model: 'claude', max_tokens: 10, messages: [{ role: 'user', content: 'hello there world' }] };
  const request = (promptCacheTtl: MeteredRequest['promptCacheTtl']): MeteredRequest => ({
    principal: { apiKeyId: 'k', userId: 'u', groupId: 'g', groupName: 'g', expiresAt: null, allowedModels: null },
    model,
    endpoint: 'messages',
    estimate: estimateMessagesRequest(parseMessagesRequest(body).request),
    uploadedBytes: 0,
    uploadedAudioSeconds: undefined,
    streamed: false,
    clientIp: '127.0.0.1',
    receivedAt: 0,
    ...(promptCacheTtl ? { promptCacheTtl } : {}),
  });

  it('holds the whole input at the 1-hour write price when a 1-hour TTL is asked for, at 5 minutes else', () => {
    const plain = estimateWorstCaseUsage(request(undefined));
    const input = plain.inputTokens;
    expect(plain.usage.cacheWritePromptTokens).toBe(0);
    const oneHour = estimateWorstCaseUsage(request('one-hour'));
    expect(oneHour.usage).toMatchObject({ cacheWritePromptTokens: input, cacheWriteOneHourPromptTokens: input });
    expect(calculateRequestCost(oneHour.usage, sonnet)).toBe(
      Math.ceil((input * 6_000_000 + 10 * 15_000_000) / 1_000_000),
    );
    const fiveMinutes = estimateWorstCaseUsage(request('five-minutes'));
    expect(fiveMinutes.usage).toMatchObject({ cacheWritePromptTokens: input, cacheWriteOneHourPromptTokens: 0 });
    expect(calculateRequestCost(oneHour.usage, sonnet)).toBeGreaterThan(
      calculateRequestCost(fiveMinutes.usage, sonnet),
    );
  });
});
