import { describe, expect, it } from 'vitest';
import { parseNameValuePairs } from './channel-commands.js';

describe('parseNameValuePairs', () => {
  it('reads comma-separated name=value pairs', () => {
    expect(parseNameValuePairs('gpt-4o=gpt-4o-2024-08-06, fast=llama', '--map')).toEqual({
      'gpt-4o': 'gpt-4o-2024-08-06',
      fast: 'llama',
    });
  });

  it('keeps a list value together for settings (premiumFields=service_tier,web_search_options)', () => {
    expect(
      parseNameValuePairs('premiumFields=service_tier,web_search_options,premiumPriceRatio=2', '--setting', {
        listValues: true,
      }),
    ).toEqual({
      premiumFields: 'service_tier,web_search_options',
      premiumPriceRatio: '2',
    });
  });

  it('still refuses an item without a name', () => {
    expect(() => parseNameValuePairs('service_tier', '--setting', { listValues: true })).toThrow(/Bad --setting pair/);
    expect(() => parseNameValuePairs('a=b,c', '--map')).toThrow(/Bad --map pair/);
  });
});
