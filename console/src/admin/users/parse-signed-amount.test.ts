import { describe, expect, it } from 'vitest';
import { parseLimit, parseSignedAmountToMicroUnits } from './parse-signed-amount';

describe('parseSignedAmountToMicroUnits', () => {
  it('reads signed decimals into integer micro-units without floats', () => {
    expect(parseSignedAmountToMicroUnits('10')).toBe(10_000_000);
    expect(parseSignedAmountToMicroUnits(' -2.50 ')).toBe(-2_500_000);
    expect(parseSignedAmountToMicroUnits('+0.000001')).toBe(1);
    expect(parseSignedAmountToMicroUnits('0.1')).toBe(100_000);
  });

  it('refuses zero, more than six decimals and anything else', () => {
    for (const text of ['', '0', '-0.00', '1.0000001', '--1', '1e3', 'ten', '-']) expect(parseSignedAmountToMicroUnits(text)).toBeNull();
  });
});

describe('parseLimit', () => {
  it('reads blank as the default, whole numbers as themselves, and anything else as invalid', () => {
    expect(parseLimit(' ')).toBeNull();
    expect(parseLimit('0')).toBe(0);
    expect(parseLimit('120')).toBe(120);
    expect(parseLimit('1.5')).toBeUndefined();
    expect(parseLimit('-1')).toBeUndefined();
  });
});
