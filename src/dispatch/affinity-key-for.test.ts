import { describe, expect, it, vi } from 'vitest';
import { affinityKeyFor } from './affinity-key-for.js';

describe('affinityKeyFor', () => {
  it('does not hash the prompt prefix for a model with a single channel', () => {
    const hash = vi.fn(() => 'prefix');
    expect(affinityKeyFor('m', hash, 1)).toBeUndefined();
    expect(affinityKeyFor('m', hash, 0)).toBeUndefined();
    expect(hash).not.toHaveBeenCalled();
  });

  it('hashes it once when there are channels to choose from, keyed by model', () => {
    const hash = vi.fn(() => 'prefix');
    expect(affinityKeyFor('m', hash, 2)).toBe('m\nprefix');
    expect(hash).toHaveBeenCalledTimes(1);
    expect(affinityKeyFor('m', 'given', 3)).toBe('m\ngiven');
  });

  it('has no key when the request has none or its prefix gives none', () => {
    expect(affinityKeyFor('m', undefined, 2)).toBeUndefined();
    expect(affinityKeyFor('m', () => undefined, 2)).toBeUndefined();
  });
});
