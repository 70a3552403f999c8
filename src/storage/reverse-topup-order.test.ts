import { describe, expect, it } from 'vitest';
import { computeReversedShare } from './reverse-topup-order.js';

const order = { amountPaidMinor: 7143, creditMicroUnits: 10_000_200, bonusMicroUnits: 1_000_000 };

describe('computeReversedShare', () => {
  it('takes back all of the credit and bonus for a full reversal, and partial shares that add up exactly', () => {
    expect(computeReversedShare(order, 7143, [])).toEqual({
      reversedMinor: 7143,
      credit: 10_000_200,
      bonus: 1_000_000,
      status: 'refunded',
    });
    const partial = computeReversedShare(order, 1, []);
    expect(partial).toEqual({ reversedMinor: 1, credit: 1400, bonus: 139, status: 'partially-refunded' });
    // Step by step, one fen at a time, the deltas end at exactly the whole.
    let taken = 0;
    for (let refunded = 1; refunded <= 7143; refunded += 1) {
      const share = computeReversedShare(order, refunded, []);
      expect(share.credit + share.bonus).toBeGreaterThanOrEqual(taken);
      taken = share.credit + share.bonus;
    }
    expect(taken).toBe(11_000_200);
  });

  it('counts open and lost disputes, not won ones, and never more than was paid', () => {
    expect(computeReversedShare(order, 0, [{ amountMinor: 7143, status: 'won' }])).toMatchObject({
      reversedMinor: 0,
      credit: 0,
      status: 'paid',
    });
    expect(computeReversedShare(order, 3000, [{ amountMinor: 7143, status: 'open' }])).toMatchObject({
      reversedMinor: 7143,
      credit: 10_000_200,
      status: 'disputed',
    });
    expect(computeReversedShare(order, 3000, [{ amountMinor: 1000, status: 'lost' }])).toMatchObject({
      reversedMinor: 4000,
      status: 'partially-refunded',
    });
  });
});
