import { describe, expect, it } from 'vitest';
import { orderChannelsForAttempt } from './order-channels-for-attempt.js';
import type { RoutableChannel } from './routing-table.js';

function channel(name: string, priority: number, weight: number): RoutableChannel {
  return {
    id: name,
    name,
    protocol: 'openai',
    baseUrl: 'http://127.0.0.1',
    secret: 's',
    priority,
    weight,
    ownedBy: 'x',
    modelMapping: new Map(),
    settings: {},
  };
}

describe('orderChannelsForAttempt', () => {
  it('tries higher priorities first whatever the weights', () => {
    const ordered = orderChannelsForAttempt([channel('low', 0, 100), channel('high', 5, 1), channel('middle', 2, 50)]);
    expect(ordered.map((entry) => entry.name)).toEqual(['high', 'middle', 'low']);
  });

  it('puts weight-zero channels after weighted ones of the same priority', () => {
    const ordered = orderChannelsForAttempt([channel('fallback', 1, 0), channel('main', 1, 1)], () => 0.01);
    expect(ordered.map((entry) => entry.name)).toEqual(['main', 'fallback']);
  });

  it('shares first place among equal priorities in proportion to weight', () => {
    const channels = [channel('heavy', 0, 3), channel('light', 0, 1)];
    let state = 42;
    const seededRandom = (): number => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return state / 2147483648;
    };
    let heavyFirst = 0;
    const draws = 4000;
    for (let draw = 0; draw < draws; draw++)
      if (orderChannelsForAttempt(channels, seededRandom)[0]?.name === 'heavy') heavyFirst++;
    expect(heavyFirst / draws).toBeGreaterThan(0.7);
    expect(heavyFirst / draws).toBeLessThan(0.8);
  });
});
