import { describe, expect, it } from 'vitest';
import { createRequestId } from './create-request-id.js';

describe('createRequestId', () => {
  it('gives req_ and 32 hex digits that sort by time and differ within one millisecond', () => {
    const earlier = createRequestId(1_795_000_000_000);
    const sameMillisecond = createRequestId(1_795_000_000_000);
    const later = createRequestId(1_795_000_000_001);
    for (const id of [earlier, sameMillisecond, later]) expect(id).toMatch(/^req_[0-9a-f]{32}$/);
    expect(earlier).not.toBe(sameMillisecond);
    expect(earlier.slice(0, 16)).toBe(sameMillisecond.slice(0, 16));
    // Fixed-width hex: string order is time order, as an index sees it.
    expect([later, earlier, sameMillisecond].sort().at(-1)).toBe(later);
  });

  it('stays unique and well formed across refills of its random pool (409 ids a pool)', () => {
    const ids = Array.from({ length: 1_000 }, () => createRequestId(1_795_000_000_000));
    for (const id of ids) expect(id).toMatch(/^req_[0-9a-f]{32}$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids.map((id) => id.slice(16))).size).toBe(ids.length);
  });
});
