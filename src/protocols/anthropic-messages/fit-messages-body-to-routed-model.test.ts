import { describe, expect, it } from 'vitest';
import { fitMessagesBodyToRoutedModel } from './fit-messages-body-to-routed-model.js';

const claudeCodeBody = {
  model: 'claude-sonnet-4-5',
  max_tokens: 32_000,
  thinking: { type: 'enabled', budget_tokens: 31_999 },
  output_config: { effort: 'high', format: { type: 'json_schema', schema: { type: 'object' } } },
  messages: [{ role: 'user', content: 'hi' }],
};

describe('fitMessagesBodyToRoutedModel', () => {
  it('lowers max_tokens to the mapped model’s cap and drops thinking and the effort for a model without reasoning', () => {
    expect(fitMessagesBodyToRoutedModel(claudeCodeBody, { maxOutputTokens: 8_192, reasoning: false })).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 8_192,
      output_config: { format: { type: 'json_schema', schema: { type: 'object' } } },
      messages: [{ role: 'user', content: 'hi' }],
    });
    const effortOnly = { ...claudeCodeBody, output_config: { effort: 'high' } };
    expect(fitMessagesBodyToRoutedModel(effortOnly, { reasoning: false })).not.toHaveProperty('output_config');
  });

  it('leaves the body as the client sent it without a mapping to a known model, or within its limits', () => {
    expect(fitMessagesBodyToRoutedModel(claudeCodeBody, undefined)).toBe(claudeCodeBody);
    expect(fitMessagesBodyToRoutedModel(claudeCodeBody, { maxOutputTokens: 64_000, reasoning: true })).toBe(
      claudeCodeBody,
    );
  });
});
