import { describe, expect, it } from 'vitest';
import {
  createRecoveryCodes,
  createTotpSecret,
  hashRecoveryCode,
  recoveryCodeCount,
  totpCodeAt,
  totpUri,
  verifyTotpCode,
} from './totp.js';

// RFC 6238 test secret "12345678901234567890" in base32.
const rfcSecret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

describe('TOTP', () => {
  it('matches the RFC 6238 SHA-1 vector (last 6 digits)', () => {
    expect(totpCodeAt(rfcSecret, 59_000)).toBe('287082');
    expect(totpCodeAt(rfcSecret, 1_111_111_109_000)).toBe('081804');
  });

  it('accepts the code of the step before and after now, returns its step, and refuses two steps away', () => {
    const now = 1_700_000_000_000;
    const step = Math.floor(now / 30_000);
    expect(verifyTotpCode(rfcSecret, totpCodeAt(rfcSecret, now), now)).toBe(step);
    expect(verifyTotpCode(rfcSecret, totpCodeAt(rfcSecret, now - 30_000), now)).toBe(step - 1);
    expect(verifyTotpCode(rfcSecret, totpCodeAt(rfcSecret, now + 30_000), now)).toBe(step + 1);
    expect(verifyTotpCode(rfcSecret, totpCodeAt(rfcSecret, now - 60_000), now)).toBeUndefined();
    expect(verifyTotpCode(rfcSecret, totpCodeAt(rfcSecret, now + 60_000), now)).toBeUndefined();
  });

  it('refuses codes that are not six digits and tolerates spaces', () => {
    const now = 1_700_000_000_000;
    const code = totpCodeAt(rfcSecret, now);
    expect(verifyTotpCode(rfcSecret, `${code.slice(0, 3)} ${code.slice(3)}`, now)).toBeDefined();
    expect(verifyTotpCode(rfcSecret, code.slice(1), now)).toBeUndefined();
    expect(verifyTotpCode(rfcSecret, 'abcdef', now)).toBeUndefined();
  });

  it('makes distinct secrets and an otpauth URI with the issuer, SHA-1, 6 digits and 30 s', () => {
    const secret = createTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(createTotpSecret()).not.toBe(secret);
    const uri = new URL(totpUri(secret, { issuer: 'Gateway', account: 'ada@example.com' }));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('secret')).toBe(secret);
    expect(uri.searchParams.get('issuer')).toBe('Gateway');
    expect(uri.searchParams.get('algorithm')).toBe('SHA1');
    expect(uri.searchParams.get('digits')).toBe('6');
    expect(uri.searchParams.get('period')).toBe('30');
  });

  it('makes ten distinct recovery codes whose hash ignores case and dashes and differs per user', () => {
    const codes = createRecoveryCodes();
    expect(codes).toHaveLength(recoveryCodeCount);
    expect(new Set(codes).size).toBe(recoveryCodeCount);
    for (const code of codes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    const [first] = codes as [string];
    expect(hashRecoveryCode('usr_1', first.toUpperCase().replace('-', ' '))).toBe(hashRecoveryCode('usr_1', first));
    expect(hashRecoveryCode('usr_1', first)).not.toBe(hashRecoveryCode('usr_1', codes[1] ?? ''));
    expect(hashRecoveryCode('usr_1', first)).not.toBe(hashRecoveryCode('usr_2', first));
  });
});
