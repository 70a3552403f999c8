import { describe, expect, it } from 'vitest';
import type { SignUpPolicy } from '../config/sign-up-config.js';
import { mayCreateAccount, readsGithubOrganizations } from './sign-up-policy.js';

describe('mayCreateAccount', () => {
  it('lets everyone in when open and no one when off', () => {
    expect(mayCreateAccount({ mode: 'open' }, undefined)).toBe(true);
    expect(mayCreateAccount({ mode: 'off' }, 'ada@example.com')).toBe(false);
  });

  it('with an allow-list, needs a verified email at one of the domains exactly', () => {
    const policy: SignUpPolicy = { mode: 'allowlist', emailDomains: ['example.com'], githubOrganizations: [] };
    expect(mayCreateAccount(policy, 'Ada@Example.com')).toBe(true);
    expect(mayCreateAccount(policy, 'ada@sub.example.com')).toBe(false);
    expect(mayCreateAccount(policy, 'ada@example.com.evil.test')).toBe(false);
    expect(mayCreateAccount(policy, 'ada@notexample.com')).toBe(false);
    expect(mayCreateAccount(policy, undefined)).toBe(false);
  });

  it('with GitHub organisations listed, also lets in a member of one of them, whatever the email', () => {
    const policy: SignUpPolicy = { mode: 'allowlist', emailDomains: ['example.com'], githubOrganizations: ['acme'] };
    expect(mayCreateAccount(policy, undefined, ['Acme'])).toBe(true);
    expect(mayCreateAccount(policy, 'ada@elsewhere.test', ['other', 'acme'])).toBe(true);
    expect(mayCreateAccount(policy, 'ada@elsewhere.test', ['acme-labs'])).toBe(false);
    expect(mayCreateAccount(policy, undefined, [])).toBe(false);
    expect(mayCreateAccount({ mode: 'off' }, undefined, ['acme'])).toBe(false);
  });
});

describe('readsGithubOrganizations', () => {
  it('asks GitHub for organisations only when the policy lists some and the attempt is a sign-in, not a link', () => {
    const withOrganizations: SignUpPolicy = { mode: 'allowlist', emailDomains: [], githubOrganizations: ['acme'] };
    expect(readsGithubOrganizations(withOrganizations, null)).toBe(true);
    expect(readsGithubOrganizations(withOrganizations, 'session-1')).toBe(false);
    expect(
      readsGithubOrganizations({ mode: 'allowlist', emailDomains: ['a.test'], githubOrganizations: [] }, null),
    ).toBe(false);
    expect(readsGithubOrganizations({ mode: 'open' }, null)).toBe(false);
    expect(readsGithubOrganizations(undefined, null)).toBe(false);
  });
});
