import type { SignUpPolicy } from '../config/sign-up-config.js';
import { normaliseEmail } from './normalise-email.js';

/**
 * Whether a first sign-in may create an account under the policy. With `allowlist`, only a verified email counts
 * (an unverified one proves nothing), and its domain must be one of the list exactly: `sub.example.com` is not
 * `example.com`, so a list names every domain it means.
 */
export function mayCreateAccount(policy: SignUpPolicy, verifiedEmail: string | undefined): boolean {
  switch (policy.mode) {
    case 'open':
      return true;
    case 'off':
      return false;
    case 'allowlist': {
      if (verifiedEmail === undefined) return false;
      const domain = normaliseEmail(verifiedEmail).split('@').pop() ?? '';
      return policy.emailDomains.includes(domain);
    }
    default: {
      const unknown: never = policy;
      throw new Error(`unknown sign-up policy ${JSON.stringify(unknown)}`);
    }
  }
}
