import { describe, expect, it } from 'vitest';
import { readSignUpPolicy } from './sign-up-config.js';

describe('readSignUpPolicy (GATEWAY_SIGNUP)', () => {
  it('is open by default, as sign-up has always been', () => {
    expect(readSignUpPolicy({})).toEqual({ mode: 'open' });
  });

  it('reads off and allowlist with its email domains (lowercase, a leading @ dropped)', () => {
    expect(readSignUpPolicy({ GATEWAY_SIGNUP: 'off' })).toEqual({ mode: 'off' });
    expect(
      readSignUpPolicy({ GATEWAY_SIGNUP: 'allowlist', GATEWAY_SIGNUP_EMAIL_DOMAINS: 'Example.com, @corp.example.org' }),
    ).toEqual({ mode: 'allowlist', emailDomains: ['example.com', 'corp.example.org'], githubOrganizations: [] });
    expect(readSignUpPolicy({ GATEWAY_SIGNUP: 'allowlist', GATEWAY_SIGNUP_GITHUB_ORGS: 'Acme, acme-labs' })).toEqual({
      mode: 'allowlist',
      emailDomains: [],
      githubOrganizations: ['acme', 'acme-labs'],
    });
  });

  it('refuses an allowlist without domains, domains without allowlist, bad domains and unknown modes', () => {
    expect(() => readSignUpPolicy({ GATEWAY_SIGNUP: 'allowlist' })).toThrow(
      /needs GATEWAY_SIGNUP_EMAIL_DOMAINS .* or GATEWAY_SIGNUP_GITHUB_ORGS/,
    );
    expect(() => readSignUpPolicy({ GATEWAY_SIGNUP_EMAIL_DOMAINS: 'example.com' })).toThrow(
      /only read with GATEWAY_SIGNUP=allowlist/,
    );
    expect(() => readSignUpPolicy({ GATEWAY_SIGNUP: 'allowlist', GATEWAY_SIGNUP_EMAIL_DOMAINS: 'localhost' })).toThrow(
      /not a domain/,
    );
    expect(() => readSignUpPolicy({ GATEWAY_SIGNUP: 'closed' })).toThrow(/must be open, allowlist or off/);
  });

  it('refuses organisations without allowlist and names that are not GitHub logins', () => {
    expect(() => readSignUpPolicy({ GATEWAY_SIGNUP: 'open', GATEWAY_SIGNUP_GITHUB_ORGS: 'acme' })).toThrow(
      /GATEWAY_SIGNUP_GITHUB_ORGS is only read with GATEWAY_SIGNUP=allowlist/,
    );
    for (const name of ['acme corp', '-acme', 'acme--labs', 'a'.repeat(40)])
      expect(() => readSignUpPolicy({ GATEWAY_SIGNUP: 'allowlist', GATEWAY_SIGNUP_GITHUB_ORGS: name }), name).toThrow(
        /is not a GitHub organisation login/,
      );
  });
});
