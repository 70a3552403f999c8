import { describe, expect, it } from 'vitest';
import type { CanonicalRequest } from '../core/canonical/canonical-request.js';
import { estimateCanonicalInputTokens } from './estimate-canonical-input-tokens.js';
import { estimateInputTokens } from './estimate-input-tokens.js';
import { imageUrlTokenEstimate } from './estimate-media-part-tokens.js';

function request(overrides: Partial<CanonicalRequest>): CanonicalRequest {
  return {
    model: 'm',
    instructions: null,
    messages: [],
    tools: [],
    toolChoice: null,
    parallelToolCalls: null,
    outputFormat: { type: 'text' },
    reasoningEffort: null,
    maxOutputTokens: null,
    sampling: { temperature: null, topP: null },
    metadata: null,
    stream: false,
    ...overrides,
  };
}

describe('estimateCanonicalInputTokens', () => {
  it('holds the same for a text conversation as the chat body carrying it', () => {
    const text = 'Tell me about the weather in Lisbon in late November, in some detail please.';
    const canonical = estimateCanonicalInputTokens(
      request({ instructions: 'Be brief.', messages: [{ role: 'user', content: [{ type: 'text', text }] }] }),
    );
    const chat = estimateInputTokens('chat.completions', {
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: text },
      ],
    });
    expect(canonical).toBe(chat);
  });

  it('counts an image by its worst case and tool calls, results and tools as text', () => {
    const withImage = estimateCanonicalInputTokens(
      request({
        messages: [{ role: 'user', content: [{ type: 'image', url: 'https://example.test/cat.png', detail: 'low' }] }],
      }),
    );
    expect(withImage).toBe(4 + imageUrlTokenEstimate.low);
    const empty = estimateCanonicalInputTokens(request({ messages: [{ role: 'assistant', content: [] }] }));
    const withTools = estimateCanonicalInputTokens(
      request({
        messages: [
          {
            role: 'assistant',
            content: [{ type: 'tool-call', callId: 'c1', name: 'get_weather', arguments: '{"city":"Lisbon"}' }],
          },
          { role: 'tool', content: [{ type: 'tool-result', callId: 'c1', output: 'sunny, 18 degrees' }] },
        ],
        tools: [{ name: 'get_weather', parameters: { type: 'object' }, strict: null }],
      }),
    );
    expect(withTools).toBeGreaterThan(empty + 10);
  });
});
