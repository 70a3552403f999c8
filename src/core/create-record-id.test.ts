import { describe, expect, it } from 'vitest';
import { createRecordId } from './create-record-id.js';

describe('createRecordId', () => {
  it('sorts by creation time and stays unique within a millisecond', () => {
    const earlier = createRecordId('use', 1_700_000_000_000);
    const later = createRecordId('use', 1_700_000_000_001);
    expect(earlier < later).toBe(true);
    expect(earlier).toMatch(/^use_[0-9a-f]{31}$/);
    const sameMillisecond = new Set(Array.from({ length: 1000 }, () => createRecordId('use', 1_700_000_000_000)));
    expect(sameMillisecond.size).toBe(1000);
  });
});
