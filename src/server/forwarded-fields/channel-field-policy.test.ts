import { describe, expect, it } from 'vitest';
import type { RoutableChannel } from '../../routing/routing-table.js';
import { channelFieldPolicyOf, enablesPremiumField } from './channel-field-policy.js';

function channel(fields: Partial<RoutableChannel>): RoutableChannel {
  return {
    id: 'c',
    name: 'c',
    protocol: 'openai',
    baseUrl: 'http://127.0.0.1',
    secret: 's',
    priority: 0,
    weight: 1,
    ownedBy: 'x',
    modelMapping: new Map(),
    settings: {},
    ...fields,
  };
}

describe('channelFieldPolicyOf', () => {
  it('enables premium fields only with a positive price ratio', () => {
    expect(
      enablesPremiumField(
        channelFieldPolicyOf(channel({ settings: { premiumFields: 'service_tier, audio' } })),
        'service_tier',
      ),
    ).toBe(false);
    for (const ratio of ['0', '-1', 'double', '1.1234567']) {
      const policy = channelFieldPolicyOf(
        channel({ settings: { premiumFields: 'service_tier', premiumPriceRatio: ratio } }),
      );
      expect(enablesPremiumField(policy, 'service_tier'), ratio).toBe(false);
    }
    const policy = channelFieldPolicyOf(
      channel({ settings: { premiumFields: 'service_tier, audio', premiumPriceRatio: '1.5' } }),
    );
    expect(policy.premiumPriceRatioMillionths).toBe(1_500_000);
    expect(enablesPremiumField(policy, 'audio')).toBe(true);
    expect(enablesPremiumField(policy, 'web_search_options')).toBe(false);
  });

  it('never enables anything on a translated protocol', () => {
    const policy = channelFieldPolicyOf(
      channel({
        protocol: 'anthropic',
        preset: 'openrouter',
        settings: { premiumFields: 'service_tier', premiumPriceRatio: '2' },
      }),
    );
    expect(enablesPremiumField(policy, 'service_tier')).toBe(false);
    expect(policy.extraFields.size + policy.premiumExtraFields.size).toBe(0);
  });

  it("reads the preset's extras, the protocol's premium extras and the store/metadata opt-in", () => {
    expect([...channelFieldPolicyOf(channel({ preset: 'vllm' })).extraFields]).toEqual([
      'top_k',
      'min_p',
      'repetition_penalty',
    ]);
    expect([...channelFieldPolicyOf(channel({ preset: 'openrouter' })).premiumExtraFields]).toEqual([
      'models',
      'route',
      'provider',
      'plugins',
    ]);
    expect([...channelFieldPolicyOf(channel({ protocol: 'azure' })).premiumExtraFields]).toEqual(['data_sources']);
    expect(
      channelFieldPolicyOf(channel({ settings: { forwardStoreAndMetadata: 'on' } })).forwardsStoreAndMetadata,
    ).toBe(true);
    expect(
      channelFieldPolicyOf(channel({ settings: { forwardStoreAndMetadata: 'off' } })).forwardsStoreAndMetadata,
    ).toBe(false);
    expect(channelFieldPolicyOf(channel({})).forwardsStoreAndMetadata).toBe(false);
  });
});
