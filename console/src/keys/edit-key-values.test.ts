import { describe, expect, it } from 'vitest';
import type { ApiKey } from '../api/api-types';
import { editKeyRequest, endOfLocalDay, formatAmountForInput, initialEditValues, parseAllowedIps, validateEditValues } from './edit-key-values';

const key: ApiKey = {
  id: 'k1', userId: 'u1', groupId: 'g1', name: 'laptop', keyPrefix: 'sk-gw-AbCd', status: 'active', disabledBy: null, usable: true, disabledReason: null,
  expiresAt: null, createdAt: 0, spendingCap: 2_500_000, spent: 0, allowedIps: ['10.0.0.0/8', '203.0.113.7'], lastUsedAt: null,
};
const now = new Date(2026, 5, 10, 12).getTime();

describe('editing a key', () => {
  it('starts from the key’s values, keeping an existing expiry', () => {
    expect(initialEditValues(key)).toEqual({ name: 'laptop', expiry: 'never', expiryDate: '', spendingCap: '2.5', allowedIps: '10.0.0.0/8\n203.0.113.7' });
    expect(initialEditValues({ ...key, expiresAt: now, spendingCap: null }).expiry).toBe('keep');
    expect(editKeyRequest(initialEditValues({ ...key, expiresAt: now }), now)).toEqual({ name: 'laptop', spendingCap: 2_500_000, allowedIps: ['10.0.0.0/8', '203.0.113.7'] });
  });

  it('shows amounts for an input without floats or grouping', () => {
    expect(formatAmountForInput(1_234_000_001)).toBe('1234.000001');
    expect(formatAmountForInput(7_000_000)).toBe('7');
  });

  it('sends never as null, a preset from now, and a date as the end of that local day', () => {
    const values = initialEditValues(key);
    expect(editKeyRequest({ ...values, expiry: 'never' }, now)?.expiresAt).toBeNull();
    expect(editKeyRequest({ ...values, expiry: '30' }, now)?.expiresAt).toBe(now + 30 * 86_400_000);
    expect(editKeyRequest({ ...values, expiry: 'date', expiryDate: '2026-07-01' }, now)?.expiresAt).toBe(new Date(2026, 6, 1, 23, 59, 59, 999).getTime());
  });

  it('clears the cap when emptied and splits the addresses on commas, spaces and lines', () => {
    expect(editKeyRequest({ ...initialEditValues(key), spendingCap: ' ', allowedIps: '1.2.3.4, 5.6.7.8\n\n ::1 ' }, now)).toMatchObject({ spendingCap: null, allowedIps: ['1.2.3.4', '5.6.7.8', '::1'] });
    expect(parseAllowedIps('')).toEqual([]);
  });

  it('refuses a bad cap, a missing or past date and a long name', () => {
    const values = initialEditValues(key);
    expect(validateEditValues({ ...values, spendingCap: '1,5' }, now)).toEqual({ spendingCap: 'spendingCapInvalid' });
    expect(validateEditValues({ ...values, expiry: 'date' }, now)).toEqual({ expiryDate: 'dateRequired' });
    expect(validateEditValues({ ...values, expiry: 'date', expiryDate: '2026-06-09' }, now)).toEqual({ expiryDate: 'dateInPast' });
    expect(validateEditValues({ ...values, expiry: 'date', expiryDate: '2026-06-10' }, now)).toEqual({});
    expect(validateEditValues({ ...values, name: 'x'.repeat(101) }, now)).toEqual({ name: 'nameTooLong' });
    expect(editKeyRequest({ ...values, spendingCap: 'abc' }, now)).toBeNull();
    expect(endOfLocalDay('tomorrow')).toBeNull();
  });
});
