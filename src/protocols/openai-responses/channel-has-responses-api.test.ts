import { describe, expect, it } from 'vitest';
import type { RoutableChannel } from '../../routing/routing-table.js';
import { channelHasResponsesApi } from './channel-has-responses-api.js';

function channel(fields: Partial<RoutableChannel>): RoutableChannel {
  return {
    id: 'chn_1',
    name: 'c',
    protocol: 'openai',
    baseUrl: 'https://vendor.test/v1',
    secret: 's',
    priority: 0,
    weight: 1,
    ownedBy: 'x',
    modelMapping: new Map(),
    settings: {},
    preset: null,
    ...fields,
  };
}

describe('channelHasResponsesApi', () => {
  it('follows the responsesApi setting, on by default only for the openai preset', () => {
    expect(channelHasResponsesApi(channel({}))).toBe(false);
    expect(channelHasResponsesApi(channel({ settings: { responsesApi: 'true' } }))).toBe(true);
    expect(channelHasResponsesApi(channel({ preset: 'openai' }))).toBe(true);
    expect(channelHasResponsesApi(channel({ preset: 'openai', settings: { responsesApi: 'false' } }))).toBe(false);
    expect(channelHasResponsesApi(channel({ preset: 'deepseek' }))).toBe(false);
  });

  it('never for other protocols, whatever the setting (their Responses surfaces differ)', () => {
    expect(channelHasResponsesApi(channel({ protocol: 'azure', settings: { responsesApi: 'true' } }))).toBe(false);
    expect(channelHasResponsesApi(channel({ protocol: 'anthropic', settings: { responsesApi: 'true' } }))).toBe(false);
  });
});
