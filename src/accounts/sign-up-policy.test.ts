import { describe, expect, it } from 'vitest';
import type { SignUpPolicy } from '../config/sign-up-config.js';
import { mayCreateAccount } from './sign-up-policy.js';

describe('mayCreateAccount', () => {
  it('lets everyone in when open and no one when off', () => {
    expect(mayCreateAccount({ mode: 'open' }, undefined)).toBe(true);
    expect(mayCreateAccount({ mode: 'off' }, 'ada@example.com')).toBe(false);
  });

  it('with an allow-list, needs a verified email at one of the domains exactly', () => {
    const policy: SignUpPolicy = { mode: 'allowlist', emailDomains: ['example.com'] };
    expect(mayCreateAccount(policy, 'Ada@Example.com')).toBe(true);
    expect(mayCreateAccount(policy, 'ada@sub.example.com')).toBe(false);
    expect(mayCreateAccount(policy, 'ada@example.com.evil.test')).toBe(false);
    expect(mayCreateAccount(policy, 'ada@notexample.com')).toBe(false);
    expect(mayCreateAccount(policy, undefined)).toBe(false);
  });
});
