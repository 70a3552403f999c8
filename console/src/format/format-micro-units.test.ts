import { describe, expect, it } from 'vitest';
import { formatMicroUnits } from './format-micro-units';
import { parseAmountToMicroUnits } from './parse-amount';

describe('formatMicroUnits', () => {
  it('shows at least two and at most six decimals, exactly', () => {
    expect(formatMicroUnits(0, 'en')).toBe('0.00');
    expect(formatMicroUnits(12_345_600, 'en')).toBe('12.3456');
    expect(formatMicroUnits(1, 'en')).toBe('0.000001');
    expect(formatMicroUnits(10_000_000, 'en')).toBe('10.00');
  });

  it('groups the whole part and keeps the sign of a debt', () => {
    expect(formatMicroUnits(1_234_567_890_000, 'en')).toBe('1,234,567.89');
    expect(formatMicroUnits(-2_500_000, 'en')).toBe('-2.50');
  });
});

describe('parseAmountToMicroUnits', () => {
  it('reads decimals into integer micro-units', () => {
    expect(parseAmountToMicroUnits('10')).toBe(10_000_000);
    expect(parseAmountToMicroUnits(' 2.5 ')).toBe(2_500_000);
    expect(parseAmountToMicroUnits('0.000001')).toBe(1);
    // 0.1 + 0.2 style float errors would show here.
    expect(parseAmountToMicroUnits('0.3')).toBe(300_000);
  });

  it('refuses what is not an amount', () => {
    for (const text of ['', 'abc', '-1', '1.2345678', '1e3', '1,5']) expect(parseAmountToMicroUnits(text), text).toBeNull();
  });
});
