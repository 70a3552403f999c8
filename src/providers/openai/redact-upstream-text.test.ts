import { describe, expect, it } from 'vitest';
import { redactUpstreamText } from './redact-upstream-text.js';

describe('redactUpstreamText', () => {
  it('removes keys, bearer tokens and URLs from vendor messages', () => {
    const redacted = redactUpstreamText(
      'Incorrect API key provided: sk-proj-abcdefghijklmnop. See https://api.vendor.example/v1/x (Bearer abc.def)',
    );
    expect(redacted).not.toContain('sk-proj-abcdefghijklmnop');
    expect(redacted).not.toContain('api.vendor.example');
    expect(redacted).not.toContain('abc.def');
    expect(redacted).toContain('Incorrect API key provided');
  });

  it("removes the channel's own secret and host whatever they look like", () => {
    const redacted = redactUpstreamText(
      'Key 0123abcd0123abcd0123abcd0123abcd rejected by my-resource.openai.azure.com',
      ['0123abcd0123abcd0123abcd0123abcd', 'my-resource.openai.azure.com'],
    );
    expect(redacted).toBe('Key [redacted] rejected by [redacted]');
  });

  it('shortens very long messages', () => {
    expect(redactUpstreamText('x'.repeat(2000)).length).toBeLessThanOrEqual(501);
  });
});
