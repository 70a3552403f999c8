import type { ProviderEmailTrust, SignInConfig } from '../config/sign-in-config.js';
import type { IdentityProvider } from '../storage/sign-in-records.js';
import { normaliseEmail } from './normalise-email.js';
import type { ProviderProfile } from './provider-profile.js';

/**
 * How far the gateway trusts a provider's verified email (docs/ACCOUNTS.md#linking-rules): as configured, else GitHub's
 * primary verified email is trusted (GitHub verifies it) and a generic OpenID provider's `email_verified` is not (any
 * provider can set it, and some let users type any address).
 */
export function providerEmailTrust(provider: IdentityProvider, config: SignInConfig): ProviderEmailTrust {
  switch (provider) {
    case 'github':
      return config.github?.emailTrust ?? { trustVerifiedEmail: true, emailDomains: [] };
    case 'oidc':
      return config.oidc?.emailTrust ?? { trustVerifiedEmail: false, emailDomains: [] };
    default:
      return assertNever(provider);
  }
}

/**
 * The profile's email, normalised, when the gateway may rely on it: the provider says it is verified, the provider is
 * trusted for that, and its domain is on the provider's allow-list (when there is one); otherwise undefined.
 */
export function trustedProviderEmail(
  profile: Pick<ProviderProfile, 'email' | 'emailVerified'>,
  trust: ProviderEmailTrust,
): string | undefined {
  if (!trust.trustVerifiedEmail || !profile.emailVerified || profile.email === null) return undefined;
  const email = normaliseEmail(profile.email);
  const at = email.lastIndexOf('@');
  if (at <= 0 || at === email.length - 1) return undefined;
  if (trust.emailDomains.length > 0 && !trust.emailDomains.includes(email.slice(at + 1))) return undefined;
  return email;
}

function assertNever(value: never): never {
  throw new Error(`unexpected sign-in provider ${String(value)}`);
}
