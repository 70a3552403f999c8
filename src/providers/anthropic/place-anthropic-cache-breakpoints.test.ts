import { describe, expect, it } from 'vitest';
import { placeAnthropicCacheBreakpoints } from './place-anthropic-cache-breakpoints.js';

describe('placeAnthropicCacheBreakpoints', () => {
  it('marks the last system block and the last markable block of the last message, leaving the input unchanged', () => {
    const system = [
      { type: 'text' as const, text: 'one' },
      { type: 'text' as const, text: 'two' },
    ];
    const messages = [
      { role: 'user' as const, content: [{ type: 'text' as const, text: 'first' }] },
      {
        role: 'assistant' as const,
        content: [
          { type: 'text' as const, text: 'answer' },
          { type: 'thinking' as const, thinking: 'hm', signature: 'sig' },
        ],
      },
    ];
    const placed = placeAnthropicCacheBreakpoints(system, messages);
    expect(placed.system).toEqual([
      { type: 'text', text: 'one' },
      { type: 'text', text: 'two', cache_control: { type: 'ephemeral' } },
    ]);
    expect(placed.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'first' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'answer', cache_control: { type: 'ephemeral' } },
          { type: 'thinking', thinking: 'hm', signature: 'sig' },
        ],
      },
    ]);
    expect(system[1]).toEqual({ type: 'text', text: 'two' });
    expect(messages[1]?.content[0]).toEqual({ type: 'text', text: 'answer' });
  });

  it('marks nothing where there is no system, or only thinking in the last message', () => {
    const messages = [{ role: 'assistant' as const, content: [{ type: 'redacted_thinking' as const, data: 'x' }] }];
    expect(placeAnthropicCacheBreakpoints(undefined, messages)).toEqual({ system: undefined, messages });
  });
});
