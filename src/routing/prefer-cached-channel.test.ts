import { describe, expect, it } from 'vitest';
import { CacheAffinityMap } from './cache-affinity-map.js';
import { preferCachedChannel } from './prefer-cached-channel.js';
import type { RoutableChannel } from './routing-table.js';

function channel(id: string, priority: number, weight = 1): RoutableChannel {
  return {
    id,
    name: id,
    protocol: 'anthropic',
    baseUrl: 'http://127.0.0.1:9',
    secret: 's',
    priority,
    weight,
    ownedBy: 'test',
    modelMapping: new Map(),
    settings: {},
  };
}

describe('preferCachedChannel', () => {
  const ordered = [channel('a', 5), channel('b', 5), channel('zero', 5, 0), channel('low', 1)];
  const ids = (channels: readonly RoutableChannel[]) => channels.map((entry) => entry.id);

  it('moves the cached channel first within the first priority, keeping the rest in order', () => {
    expect(ids(preferCachedChannel(ordered, 'b'))).toEqual(['b', 'a', 'zero', 'low']);
  });

  it('never overrides priority or weight 0, and ignores a channel no longer eligible or healthy', () => {
    expect(ids(preferCachedChannel(ordered, 'low'))).toEqual(['a', 'b', 'zero', 'low']);
    expect(ids(preferCachedChannel(ordered, 'zero'))).toEqual(['a', 'b', 'zero', 'low']);
    expect(ids(preferCachedChannel(ordered, 'gone'))).toEqual(['a', 'b', 'zero', 'low']);
    expect(ids(preferCachedChannel(ordered, undefined))).toEqual(['a', 'b', 'zero', 'low']);
  });
});

describe('CacheAffinityMap', () => {
  it('remembers the last channel per key and forgets the least recently used past its capacity', () => {
    const map = new CacheAffinityMap(2);
    map.remember('one', 'a');
    map.remember('two', 'b');
    map.remember('one', 'c');
    expect(map.channelFor('two')).toBe('b');
    map.remember('three', 'a');
    expect(map.channelFor('one')).toBeUndefined();
    expect(map.channelFor('two')).toBe('b');
    expect(map.channelFor('three')).toBe('a');
    expect(map.size).toBe(2);
  });
});
