import type { SignUpPolicy } from '../config/sign-up-config.js';
import { normaliseEmail } from './normalise-email.js';

/**
 * Whether a first sign-in may create an account under the policy. With `allowlist`, either a verified email whose
 * domain is one of the list exactly (`sub.example.com` is not `example.com`; an unverified email proves nothing), or
 * membership of one of the listed GitHub organisations (`githubOrganizations`: the logins GitHub listed for this
 * user, empty for other providers).
 */
export function mayCreateAccount(
  policy: SignUpPolicy,
  verifiedEmail: string | undefined,
  githubOrganizations: readonly string[] = [],
): boolean {
  switch (policy.mode) {
    case 'open':
      return true;
    case 'off':
      return false;
    case 'allowlist': {
      if (githubOrganizations.some((login) => policy.githubOrganizations.includes(login.toLowerCase()))) return true;
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

/**
 * Whether a sign-in that may make an account needs the user's GitHub organisations: only when the policy lists some
 * (the `read:org` scope is asked only then) and the attempt is not a link to a signed-in account.
 */
export function readsGithubOrganizations(policy: SignUpPolicy | undefined, linkSessionId: string | null): boolean {
  return linkSessionId === null && policy?.mode === 'allowlist' && policy.githubOrganizations.length > 0;
}
