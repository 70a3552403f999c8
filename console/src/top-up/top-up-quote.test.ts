import { describe, expect, it } from 'vitest';
import { bonusRuleInUnits, computeBonus, formatMinorUnits, quoteCharge, quoteTopUp } from './top-up-quote';
import type { TopUpBonusRule, TopUpMethodOption } from './top-up-types';

// The same cases as the gateway's src/accounts/payments/quote-topup.test.ts: the preview must equal what is charged.
describe('quoteCharge', () => {
  it('charges whole minor units rounded up and credits exactly what the charge buys', () => {
    expect(quoteCharge(10_000_000, { microUnitsPerCurrencyUnit: 1_000_000, currency: 'usd' })).toEqual({ amountPaidMinor: 1000, creditMicroUnits: 10_000_000 });
    expect(quoteCharge(10_000_000, { microUnitsPerCurrencyUnit: 140_000, currency: 'cny' })).toEqual({ amountPaidMinor: 7143, creditMicroUnits: 10_000_200 });
    expect(quoteCharge(1_000_000, { microUnitsPerCurrencyUnit: 1_000_000, currency: 'jpy' })).toEqual({ amountPaidMinor: 1, creditMicroUnits: 1_000_000 });
    expect(quoteCharge(1, { microUnitsPerCurrencyUnit: 1_000_000, currency: 'usd' })).toEqual({ amountPaidMinor: 1, creditMicroUnits: 10_000 });
  });
});

describe('computeBonus', () => {
  it('adds the percentage (rounded down) and the fixed part, then caps', () => {
    expect(computeBonus(10_000_000, { percentMillionths: 10_000_000, fixedMicroUnits: 500_000, capMicroUnits: 0 })).toBe(1_500_000);
    expect(computeBonus(10_000_000, { percentMillionths: 10_000_000, fixedMicroUnits: 500_000, capMicroUnits: 1_200_000 })).toBe(1_200_000);
    expect(computeBonus(3, { percentMillionths: 33_333_333, fixedMicroUnits: 0, capMicroUnits: 0 })).toBe(0);
    expect(computeBonus(10_000_000, { percentMillionths: 0, fixedMicroUnits: 0, capMicroUnits: 0 })).toBe(0);
  });

  it('reads the rule the options answer gives (decimal strings; a null cap is no cap)', () => {
    expect(bonusRuleInUnits({ percent: '10', fixed: '0.5', cap: '2', eligible: true })).toEqual({ percentMillionths: 10_000_000, fixedMicroUnits: 500_000, capMicroUnits: 2_000_000 });
    expect(bonusRuleInUnits({ percent: '0', fixed: '1', cap: null, eligible: true })).toEqual({ percentMillionths: 0, fixedMicroUnits: 1_000_000, capMicroUnits: 0 });
  });
});

describe('quoteTopUp', () => {
  const alipay: TopUpMethodOption = { method: 'alipay', currency: 'cny', unitsPerCurrencyUnit: '0.14', kind: 'qr' };
  const stripe: TopUpMethodOption = { method: 'stripe', currency: 'usd', unitsPerCurrencyUnit: '1', kind: 'redirect' };
  const bonus: TopUpBonusRule = { percent: '10', fixed: '0.5', cap: '2', eligible: true };

  it('gives the charge, credit and bonus the gateway will record (stripe-topup and alipay-topup tests)', () => {
    expect(quoteTopUp(10_000_000, stripe, bonus)).toEqual({ amountPaidMinor: 1000, creditMicroUnits: 10_000_000, bonusMicroUnits: 1_500_000 });
    expect(quoteTopUp(10_000_000, alipay, { percent: '0', fixed: '1', cap: null, eligible: true })).toEqual({ amountPaidMinor: 7143, creditMicroUnits: 10_000_200, bonusMicroUnits: 1_000_000 });
    expect(quoteTopUp(100_000_000, stripe, bonus)?.bonusMicroUnits).toBe(2_000_000);
  });

  it('offers no bonus once the caller has a paid order', () => {
    expect(quoteTopUp(10_000_000, stripe, { ...bonus, eligible: false })?.bonusMicroUnits).toBe(0);
  });

  it('formats the charge the way the provider shows it', () => {
    expect(formatMinorUnits(7143, 'cny')).toBe('71.43');
    expect(formatMinorUnits(5, 'usd')).toBe('0.05');
    expect(formatMinorUnits(500, 'jpy')).toBe('500');
  });
});
