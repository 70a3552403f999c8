import { describe, expect, it } from 'vitest';
import {
  generateRedemptionCode,
  hashRedemptionCode,
  normaliseRedemptionCode,
  redemptionCodeDisplayPrefix,
} from './redemption-code.js';

describe('redemption codes', () => {
  it('are at least 24 symbols of the unambiguous alphabet, grouped by four, and never repeat', () => {
    const codes = new Set(Array.from({ length: 1_000 }, () => generateRedemptionCode()));
    expect(codes.size).toBe(1_000);
    for (const code of codes) {
      expect(code).toMatch(/^([A-HJ-NP-Z2-9]{4}-){6}[A-HJ-NP-Z2-9]{4}$/);
      expect(normaliseRedemptionCode(code).length).toBeGreaterThanOrEqual(24);
    }
  });

  it('hash the same whether typed with dashes, spaces or lower case', () => {
    const code = generateRedemptionCode();
    const typed = ` ${normaliseRedemptionCode(code)
      .toLowerCase()
      .replace(/(.{7})/g, '$1 ')} `;
    expect(hashRedemptionCode(typed)).toBe(hashRedemptionCode(code));
    expect(hashRedemptionCode(code)).toMatch(/^[0-9a-f]{64}$/);
    expect(redemptionCodeDisplayPrefix(code)).toBe(normaliseRedemptionCode(code).slice(0, 6));
  });
});
