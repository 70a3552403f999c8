import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from './parse-retry-after.js';

const now = Date.UTC(2026, 0, 1, 12, 0, 0);

describe('parseRetryAfter', () => {
  it('reads delay-seconds, fractions rounded up to the millisecond', () => {
    expect(parseRetryAfter('30', now)).toBe(now + 30_000);
    expect(parseRetryAfter(' 1.5 ', now)).toBe(now + 1_500);
  });

  it('reads an HTTP date', () => {
    expect(parseRetryAfter('Thu, 01 Jan 2026 12:02:00 GMT', now)).toBe(now + 120_000);
  });

  it('ignores absent, unreadable, zero, negative and past values', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('0', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
    expect(parseRetryAfter('Thu, 01 Jan 2026 11:59:00 GMT', now)).toBeUndefined();
  });
});
