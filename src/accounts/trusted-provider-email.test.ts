import { describe, expect, it } from 'vitest';
import type { SignInConfig } from '../config/sign-in-config.js';
import { providerEmailTrust, trustedProviderEmail } from './trusted-provider-email.js';

const github = { clientId: 'id', clientSecret: 's', baseUrl: 'https://github.com', apiUrl: 'https://api.github.com' };
const oidc = { issuer: 'https://id.example', clientId: 'id', clientSecret: 's', displayName: 'SSO' };

describe('providerEmailTrust', () => {
  it("trusts GitHub's verified email and not a generic OpenID provider's unless configured", () => {
    const unset: SignInConfig = { publicUrl: undefined, github, oidc };
    expect(providerEmailTrust('github', unset)).toEqual({ trustVerifiedEmail: true, emailDomains: [] });
    expect(providerEmailTrust('oidc', unset)).toEqual({ trustVerifiedEmail: false, emailDomains: [] });
    const configured: SignInConfig = {
      publicUrl: undefined,
      github: { ...github, emailTrust: { trustVerifiedEmail: false, emailDomains: [] } },
      oidc: { ...oidc, emailTrust: { trustVerifiedEmail: true, emailDomains: ['example.com'] } },
    };
    expect(providerEmailTrust('github', configured).trustVerifiedEmail).toBe(false);
    expect(providerEmailTrust('oidc', configured)).toEqual({ trustVerifiedEmail: true, emailDomains: ['example.com'] });
  });
});

describe('trustedProviderEmail', () => {
  const trusted = { trustVerifiedEmail: true, emailDomains: [] };

  it('gives the normalised email only when it is verified and the provider is trusted', () => {
    expect(trustedProviderEmail({ email: ' Ada@Example.COM ', emailVerified: true }, trusted)).toBe('ada@example.com');
    expect(trustedProviderEmail({ email: 'ada@example.com', emailVerified: false }, trusted)).toBeUndefined();
    expect(trustedProviderEmail({ email: null, emailVerified: true }, trusted)).toBeUndefined();
    expect(
      trustedProviderEmail(
        { email: 'ada@example.com', emailVerified: true },
        { trustVerifiedEmail: false, emailDomains: [] },
      ),
    ).toBeUndefined();
    expect(trustedProviderEmail({ email: 'not-an-email', emailVerified: true }, trusted)).toBeUndefined();
  });

  it('keeps to the allow-list of domains exactly, when there is one', () => {
    const corporate = { trustVerifiedEmail: true, emailDomains: ['example.com'] };
    expect(trustedProviderEmail({ email: 'ada@EXAMPLE.com', emailVerified: true }, corporate)).toBe('ada@example.com');
    for (const email of ['ada@sub.example.com', 'ada@example.com.evil.test', 'ada@evil.test'])
      expect(trustedProviderEmail({ email, emailVerified: true }, corporate), email).toBeUndefined();
  });
});
