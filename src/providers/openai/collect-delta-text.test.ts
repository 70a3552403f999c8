import { describe, expect, it } from 'vitest';
import { collectDeltaText } from './collect-delta-text.js';

describe('collectDeltaText', () => {
  it('collects content, tool arguments and legacy text, unescaping JSON escapes', () => {
    const parts: string[] = [];
    collectDeltaText(JSON.stringify({ choices: [{ delta: { content: 'Say "hi"\n' } }] }), parts);
    collectDeltaText(
      JSON.stringify({ choices: [{ delta: { tool_calls: [{ index: 0, function: { arguments: '{"a":1}' } }] } }] }),
      parts,
    );
    collectDeltaText(JSON.stringify({ choices: [{ text: 'legacy' }] }), parts);
    collectDeltaText(JSON.stringify({ choices: [{ delta: { content: null } }] }), parts);
    expect(parts.join('')).toBe('Say "hi"\n{"a":1}legacy');
  });
});
