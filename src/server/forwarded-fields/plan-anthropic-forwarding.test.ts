import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/gateway-error.js';
import type { ChannelProtocol } from '../../core/channel-protocol.js';
import type { RoutableChannel } from '../../routing/routing-table.js';
import { countTokensAnthropicBeta, planAnthropicForwarding } from './plan-anthropic-forwarding.js';

function channel(id: string, settings: Record<string, string> = {}, protocol: ChannelProtocol = 'anthropic') {
  return {
    id,
    name: id,
    protocol,
    baseUrl: 'http://127.0.0.1',
    secret: 's',
    priority: 0,
    weight: 1,
    ownedBy: 'x',
    modelMapping: new Map(),
    settings,
  } satisfies RoutableChannel;
}

const plain = channel('plain');
const longContext = channel('long-context', { anthropicBetas: 'context-1m-2025-08-07', premiumPriceRatio: '2' });
const noOneHour = channel('no-one-hour', { cacheTtlOneHour: 'off' });
const translated = channel('openai', {}, 'openai');
const messages = [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }];

function plan(options: { body?: Record<string, unknown>; beta?: string; channels: RoutableChannel[] }) {
  return planAnthropicForwarding({
    body: options.body ?? { model: 'claude', max_tokens: 5, messages },
    anthropicBeta: options.beta,
    modelId: 'claude',
    channels: options.channels,
  });
}

function refusalOf(run: () => unknown): GatewayError {
  try {
    run();
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('planAnthropicForwarding: betas', () => {
  it('forwards the free betas to every channel at the normal price, trimmed and without repeats', () => {
    const planned = plan({
      beta: ' interleaved-thinking-2025-05-14, fine-grained-tool-streaming-2025-05-14,interleaved-thinking-2025-05-14,',
      channels: [plain, longContext],
    });
    expect(planned.anthropicBeta).toBe('interleaved-thinking-2025-05-14,fine-grained-tool-streaming-2025-05-14');
    expect(planned.acceptsChannel).toBeUndefined();
    expect(planned.premiumPriceRatios).toBeUndefined();
  });

  it("forwards Claude Code 2.1.332's default betas to a plain channel at the normal price", () => {
    const claudeCodeBeta =
      'claude-code-20250219,interleaved-thinking-2025-05-14,context-management-2025-06-27,per-turn-control-2026-07-01,' +
      'mid-conversation-tool-changes-2026-07-01,thinking-token-count-2026-05-13,advanced-tool-use-2025-11-20,effort-2025-11-24';
    const planned = plan({ beta: claudeCodeBeta, channels: [plain] });
    expect(planned.anthropicBeta).toBe(claudeCodeBeta);
    expect(planned.acceptsChannel).toBeUndefined();
    expect(planned.premiumPriceRatios).toBeUndefined();
  });

  it('refuses a beta no channel of the model enables with a 400 naming it, before any vendor call', () => {
    const refusal = refusalOf(() =>
      plan({ beta: 'interleaved-thinking-2025-05-14,context-1m-2025-08-07', channels: [plain] }),
    );
    expect(refusal.code).toBe('invalid_request_error');
    expect(refusal.status).toBe(400);
    expect(refusal.param).toBe('anthropic-beta');
    expect(refusal.message).toContain("'context-1m-2025-08-07'");
    expect(refusalOf(() => plan({ beta: 'files-api-2025-04-14', channels: [plain, longContext] })).message).toContain(
      'files-api-2025-04-14',
    );
  });

  it('sends an enabled beta only to the channels that enable it, priced at their premium ratio', () => {
    const planned = plan({ beta: 'context-1m-2025-08-07', channels: [plain, longContext] });
    expect(planned.anthropicBeta).toBe('context-1m-2025-08-07');
    expect(planned.acceptsChannel?.(plain)).toBe(false);
    expect(planned.acceptsChannel?.(longContext)).toBe(true);
    expect(planned.premiumPriceRatios).toEqual(new Map([['long-context', 2_000_000]]));
  });

  it('enables nothing without a price ratio: a beta listed on a channel without premiumPriceRatio is refused', () => {
    const unpriced = channel('unpriced', { anthropicBetas: 'context-1m-2025-08-07' });
    expect(refusalOf(() => plan({ beta: 'context-1m-2025-08-07', channels: [unpriced] })).param).toBe('anthropic-beta');
  });

  it('lets translated channels serve any beta (they are sent no header), at no premium', () => {
    const planned = plan({ beta: 'context-1m-2025-08-07', channels: [plain, translated] });
    expect(planned.acceptsChannel?.(plain)).toBe(false);
    expect(planned.acceptsChannel?.(translated)).toBe(true);
    expect(planned.premiumPriceRatios).toEqual(new Map());
  });
});

describe('planAnthropicForwarding: premium fields', () => {
  it("refuses service_tier 'auto' (Priority Tier capacity may serve it) and lets 'standard_only' through", () => {
    const body = { model: 'claude', max_tokens: 5, messages, service_tier: 'auto' };
    const refusal = refusalOf(() => plan({ body, channels: [plain] }));
    expect(refusal.param).toBe('service_tier');
    expect(refusal.message).toContain(`'service_tier' = "auto"`);
    const standard = plan({ body: { ...body, service_tier: 'standard_only' }, channels: [plain] });
    expect(standard.premiumPriceRatios).toBeUndefined();
    expect(standard.acceptsChannel).toBeUndefined();
  });

  it('prices service_tier, speed and inference_geo on a channel that enables them with a ratio', () => {
    const priority = channel('priority', { premiumFields: 'service_tier,speed', premiumPriceRatio: '1.5' });
    const planned = plan({
      body: { model: 'claude', max_tokens: 5, messages, service_tier: 'auto', speed: 'fast' },
      channels: [plain, priority],
    });
    expect(planned.acceptsChannel?.(priority)).toBe(true);
    expect(planned.acceptsChannel?.(plain)).toBe(false);
    expect(planned.premiumPriceRatios).toEqual(new Map([['priority', 1_500_000]]));
    expect(
      refusalOf(() =>
        plan({ body: { model: 'claude', max_tokens: 5, messages, inference_geo: 'us' }, channels: [priority] }),
      ).param,
    ).toBe('inference_geo');
  });
});

describe('planAnthropicForwarding: cache_control TTLs', () => {
  const oneHourBody = {
    model: 'claude',
    max_tokens: 5,
    system: [{ type: 'text', text: 'long', cache_control: { type: 'ephemeral', ttl: '1h' } }],
    messages,
  };

  it('allows a 1-hour TTL by default (it is priced) and reports it for the hold, at no premium ratio', () => {
    const planned = plan({ body: oneHourBody, channels: [plain] });
    expect(planned.promptCacheTtl).toBe('one-hour');
    expect(planned.premiumPriceRatios).toBeUndefined();
    expect(planned.acceptsChannel?.(plain)).toBe(true);
  });

  it('refuses it, naming the field, when no channel allows 1-hour TTLs; routes it to one that does', () => {
    const refusal = refusalOf(() => plan({ body: oneHourBody, channels: [noOneHour] }));
    expect(refusal.param).toBe('system[0].cache_control.ttl');
    expect(refusal.message).toContain('"1h"');
    const mixed = plan({ body: oneHourBody, channels: [noOneHour, plain] });
    expect(mixed.acceptsChannel?.(noOneHour)).toBe(false);
    expect(mixed.acceptsChannel?.(plain)).toBe(true);
  });

  it('finds TTLs in tools, message blocks, tool results and at the top level; reads no tool input', () => {
    const control = { type: 'ephemeral', ttl: '1h' };
    const where = (body: Record<string, unknown>) =>
      refusalOf(() => plan({ body: { model: 'claude', max_tokens: 5, messages, ...body }, channels: [noOneHour] }))
        .param;
    expect(where({ tools: [{ name: 't', input_schema: { type: 'object' }, cache_control: control }] })).toBe(
      'tools[0].cache_control.ttl',
    );
    expect(where({ cache_control: control })).toBe('cache_control.ttl');
    expect(
      where({
        messages: [
          { role: 'user', content: 'q' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'x', name: 't', input: {} }] },
          {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: 'x', content: [{ type: 'text', text: 'r', cache_control: control }] },
            ],
          },
        ],
      }),
    ).toBe('messages[2].content[0].content[0].cache_control.ttl');
    const inInput = plan({
      body: {
        model: 'claude',
        max_tokens: 5,
        messages: [
          { role: 'assistant', content: [{ type: 'tool_use', id: 'x', name: 't', input: { cache_control: control } }] },
        ],
      },
      channels: [noOneHour],
    });
    expect(inInput.promptCacheTtl).toBeUndefined();
  });

  it('counts a cache_control without ttl as 5 minutes, and refuses a TTL no price models', () => {
    const fiveMinutes = plan({
      body: { model: 'claude', max_tokens: 5, messages, cache_control: { type: 'ephemeral' } },
      channels: [noOneHour],
    });
    expect(fiveMinutes.promptCacheTtl).toBe('five-minutes');
    expect(fiveMinutes.acceptsChannel).toBeUndefined();
    const refusal = refusalOf(() =>
      plan({
        body: { model: 'claude', max_tokens: 5, messages, cache_control: { type: 'ephemeral', ttl: '24h' } },
        channels: [plain],
      }),
    );
    expect(refusal.param).toBe('cache_control.ttl');
  });
});

describe('countTokensAnthropicBeta', () => {
  it('keeps free betas and those every Anthropic channel enables, and drops the rest (counting is free)', () => {
    const header = 'claude-code-20250219,context-1m-2025-08-07,files-api-2025-04-14';
    expect(countTokensAnthropicBeta(header, [longContext])).toBe('claude-code-20250219,context-1m-2025-08-07');
    expect(countTokensAnthropicBeta(header, [longContext, plain])).toBe('claude-code-20250219');
    expect(countTokensAnthropicBeta('files-api-2025-04-14', [plain])).toBeUndefined();
    expect(countTokensAnthropicBeta(undefined, [plain])).toBeUndefined();
  });
});
