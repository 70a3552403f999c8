import { describe, expect, it } from 'vitest';
import type { RoutableChannel } from '../../routing/routing-table.js';
import { chatCompletionFieldRules } from '../../protocols/openai-chat/chat-completion-request-schema.js';
import { planForwardedFields } from './plan-forwarded-fields.js';

function channel(id: string, settings: Record<string, string> = {}): RoutableChannel {
  return {
    id,
    name: id,
    protocol: 'openai',
    baseUrl: 'http://127.0.0.1',
    secret: 's',
    priority: 0,
    weight: 1,
    ownedBy: 'x',
    modelMapping: new Map(),
    settings,
  };
}

const plain = channel('plain');
const optedIn = channel('opted-in', { forwardStoreAndMetadata: 'on' });
const messages = [{ role: 'user', content: 'hi' }];

describe('planForwardedFields', () => {
  it('leaves a request of official fields on the fast path: every channel, the body itself, no copy', () => {
    const body = { model: 'm', messages, temperature: 0.5 };
    const plan = planForwardedFields({
      body,
      rules: chatCompletionFieldRules,
      modelId: 'm',
      channels: [plain, optedIn],
    });
    expect(plan.acceptsChannel).toBeUndefined();
    expect(plan.premiumPriceRatios).toBeUndefined();
    expect(plan.bodyFor(plain)).toBe(body);
  });

  it('copies the body once, shallowly, to drop store and metadata for channels that did not opt in', () => {
    const body = { model: 'm', messages, store: true, metadata: { a: 'b' } };
    const plan = planForwardedFields({
      body,
      rules: chatCompletionFieldRules,
      modelId: 'm',
      channels: [plain, optedIn],
    });
    const stripped = plan.bodyFor(plain);
    expect(stripped).toEqual({ model: 'm', messages });
    expect(stripped.messages).toBe(messages);
    expect(plan.bodyFor(channel('another-plain'))).toBe(stripped);
    expect(plan.bodyFor(optedIn)).toBe(body);
  });

  it('keeps only the enabling channels for a premium request and reports their ratios', () => {
    const enabling = channel('enabling', { premiumFields: 'service_tier', premiumPriceRatio: '2.5' });
    const plan = planForwardedFields({
      body: { model: 'm', messages, service_tier: 'priority' },
      rules: chatCompletionFieldRules,
      modelId: 'm',
      channels: [plain, enabling],
    });
    expect(plan.acceptsChannel?.(plain)).toBe(false);
    expect(plan.acceptsChannel?.(enabling)).toBe(true);
    expect([...(plan.premiumPriceRatios ?? [])]).toEqual([['enabling', 2_500_000]]);
  });
});
