import { describe, expect, it } from 'vitest';
import { computeTopupBonus, formatMinorUnits, parseMinorUnits, quoteTopup } from './quote-topup.js';

describe('quoteTopup', () => {
  it('charges whole minor units rounded up and credits exactly what the charge buys', () => {
    expect(quoteTopup(10_000_000, { microUnitsPerCurrencyUnit: 1_000_000, currency: 'usd' })).toEqual({
      amountPaidMinor: 1000,
      creditMicroUnits: 10_000_000,
    });
    // 0.14 units per yuan: 10 units cost 71.428571... yuan, charged 71.43, which buys 10.0002 units.
    expect(quoteTopup(10_000_000, { microUnitsPerCurrencyUnit: 140_000, currency: 'cny' })).toEqual({
      amountPaidMinor: 7143,
      creditMicroUnits: 10_000_200,
    });
    expect(quoteTopup(1_000_000, { microUnitsPerCurrencyUnit: 1_000_000, currency: 'jpy' })).toEqual({
      amountPaidMinor: 1,
      creditMicroUnits: 1_000_000,
    });
    expect(quoteTopup(1, { microUnitsPerCurrencyUnit: 1_000_000, currency: 'usd' })).toEqual({
      amountPaidMinor: 1,
      creditMicroUnits: 10_000,
    });
  });
});

describe('computeTopupBonus', () => {
  it('adds the percentage (rounded down) and the fixed part, then caps', () => {
    expect(
      computeTopupBonus(10_000_000, { percentMillionths: 10_000_000, fixedMicroUnits: 500_000, capMicroUnits: 0 }),
    ).toBe(1_500_000);
    expect(
      computeTopupBonus(10_000_000, {
        percentMillionths: 10_000_000,
        fixedMicroUnits: 500_000,
        capMicroUnits: 1_200_000,
      }),
    ).toBe(1_200_000);
    expect(computeTopupBonus(3, { percentMillionths: 33_333_333, fixedMicroUnits: 0, capMicroUnits: 0 })).toBe(0);
    expect(computeTopupBonus(10_000_000, { percentMillionths: 0, fixedMicroUnits: 0, capMicroUnits: 0 })).toBe(0);
  });
});

describe('provider amounts', () => {
  it('formats and parses two-decimal strings exactly', () => {
    expect(formatMinorUnits(7143, 'cny')).toBe('71.43');
    expect(formatMinorUnits(5, 'usd')).toBe('0.05');
    expect(formatMinorUnits(500, 'jpy')).toBe('500');
    expect(parseMinorUnits('71.43')).toBe(7143);
    expect(parseMinorUnits('10')).toBe(1000);
    expect(parseMinorUnits('0.5')).toBe(50);
    expect(parseMinorUnits('1e3')).toBeUndefined();
    expect(parseMinorUnits('0.001')).toBeUndefined();
  });
});
