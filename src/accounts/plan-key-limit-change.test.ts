import { describe, expect, it } from 'vitest';
import { GatewayError } from '../core/gateway-error.js';
import type { ApiKeyAdminLimits } from '../storage/store-records.js';
import { planKeyLimitChange, type KeyLimitChanges } from './plan-key-limit-change.js';

const expiry = Date.UTC(2027, 0, 1);
const adminSet: ApiKeyAdminLimits = {
  expiresAt: expiry,
  spendingCap: 5_000_000,
  allowedIps: ['10.0.0.0/8', '192.0.2.7'],
  requestsPerMinute: 20,
};

/** `allowed`, or the status and field of the refusal an owner's change gets. */
function ownerOutcome(changes: KeyLimitChanges, adminLimits: ApiKeyAdminLimits = adminSet): string {
  try {
    planKeyLimitChange('owner', adminLimits, changes);
    return 'allowed';
  } catch (error) {
    return error instanceof GatewayError ? `${error.status} ${error.param}` : 'other error';
  }
}

describe('planKeyLimitChange for the owner', () => {
  it('refuses removing or raising what an administrator set', () => {
    expect(ownerOutcome({ spendingCap: null })).toBe('403 spendingCap');
    expect(ownerOutcome({ spendingCap: 5_000_001 })).toBe('403 spendingCap');
    expect(ownerOutcome({ expiresAt: null })).toBe('403 expiresAt');
    expect(ownerOutcome({ expiresAt: expiry + 1 })).toBe('403 expiresAt');
    expect(ownerOutcome({ allowedIps: [] })).toBe('403 allowedIps');
    expect(ownerOutcome({ allowedIps: ['10.0.0.0/7'] })).toBe('403 allowedIps');
    expect(ownerOutcome({ allowedIps: ['10.1.0.0/16', '11.0.0.1'] })).toBe('403 allowedIps');
    expect(ownerOutcome({ allowedIps: ['192.0.2.0/24'] })).toBe('403 allowedIps');
    expect(ownerOutcome({ allowedIps: ['::ffff:10.0.0.1'] })).toBe('403 allowedIps');
    expect(ownerOutcome({ requestsPerMinute: 21 })).toBe('403 limits.requestsPerMinute');
    expect(ownerOutcome({ requestsPerMinute: 0 })).toBe('403 limits.requestsPerMinute');
    expect(ownerOutcome({ requestsPerMinute: null })).toBe('403 limits.requestsPerMinute');
  });

  it('allows tightening, keeping, and changing limits no administrator set', () => {
    expect(ownerOutcome({ spendingCap: 5_000_000 })).toBe('allowed');
    expect(ownerOutcome({ spendingCap: 1 })).toBe('allowed');
    expect(ownerOutcome({ expiresAt: expiry - 86_400_000 })).toBe('allowed');
    expect(ownerOutcome({ allowedIps: ['10.20.0.0/16', '10.1.2.3', '192.0.2.7'] })).toBe('allowed');
    expect(ownerOutcome({ requestsPerMinute: 5 })).toBe('allowed');
    expect(ownerOutcome({ tokensPerMinute: null, maxConcurrentRequests: 0 })).toBe('allowed');
    expect(ownerOutcome({ spendingCap: null, expiresAt: null, allowedIps: [] }, {})).toBe('allowed');
  });

  it('leaves the administrator bounds as they were', () => {
    expect(planKeyLimitChange('owner', adminSet, { spendingCap: 1 })).toEqual(adminSet);
  });
});

describe('planKeyLimitChange for an administrator', () => {
  it('makes each limit it sets a bound and lifts the bounds of limits it removes', () => {
    expect(
      planKeyLimitChange('admin', adminSet, {
        spendingCap: 9_000_000,
        expiresAt: null,
        allowedIps: [],
        requestsPerMinute: 0,
        tokensPerMinute: 1_000,
        maxConcurrentRequests: null,
      }),
    ).toEqual({ spendingCap: 9_000_000, tokensPerMinute: 1_000 });
  });

  it('keeps the bounds of limits it does not touch', () => {
    expect(planKeyLimitChange('admin', adminSet, { spendingCap: 7 })).toEqual({ ...adminSet, spendingCap: 7 });
    expect(planKeyLimitChange('admin', {}, {})).toEqual({});
  });

  it('binds the owner afterwards to what it set', () => {
    const bounds = planKeyLimitChange('admin', {}, { spendingCap: 100, allowedIps: ['2001:db8::/32'] });
    expect(ownerOutcome({ spendingCap: 101 }, bounds)).toBe('403 spendingCap');
    expect(ownerOutcome({ allowedIps: ['2001:db8:1::/48'] }, bounds)).toBe('allowed');
    expect(ownerOutcome({ allowedIps: ['2001:db9::1'] }, bounds)).toBe('403 allowedIps');
  });
});
