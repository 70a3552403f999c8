import type { SignUpPolicy } from '../config/sign-up-config.js';
import type { IdentityProvider } from '../storage/sign-in-records.js';
import { buildGithubAuthorizationUrl } from './github-sign-in.js';
import { createOauthTransaction, encodeOauthTransaction } from './oauth-transaction.js';
import { safeReturnPath } from './safe-return-path.js';
import { SignInError } from './sign-in-error.js';
import { readsGithubOrganizations } from './sign-up-policy.js';
import type { SignInServices } from './sign-in-services.js';

/** A started sign-in or link attempt: where to send the browser, and the attempt cookie's value. */
export interface BegunOauthAttempt {
  /** the provider's authorize URL */
  location: string;
  /** the `gateway_oauth` cookie value that the callback needs */
  transactionCookie: string;
}

/**
 * Starts a sign-in (or, with `linkSessionId`, a link to that console session's user) at a provider: a new attempt with
 * the return path checked, and the provider's authorize URL for it. Throws `provider_not_configured` when it is not.
 */
export async function beginOauthAttempt(
  signIn: SignInServices,
  options: {
    provider: IdentityProvider;
    publicOrigin: string;
    returnTo: string | undefined;
    linkSessionId: string | null;
    /** the sign-up policy: GitHub is asked for organisation memberships when it checks them */
    signUp: SignUpPolicy | undefined;
    now: number;
  },
): Promise<BegunOauthAttempt> {
  const { transaction, codeChallenge } = await createOauthTransaction({
    provider: options.provider,
    returnPath: safeReturnPath(options.returnTo),
    linkSessionId: options.linkSessionId,
    now: options.now,
  });
  const attempt = {
    redirectUri: oauthCallbackUrl(options.publicOrigin, options.provider),
    state: transaction.state,
    nonce: transaction.nonce,
    codeChallenge,
  };
  let location: string;
  switch (options.provider) {
    case 'github': {
      if (signIn.config.github === undefined)
        throw new SignInError('provider_not_configured', 'GitHub sign-in is not configured');
      location = buildGithubAuthorizationUrl(signIn.config.github, {
        ...attempt,
        readOrganizations: readsGithubOrganizations(options.signUp, options.linkSessionId),
      });
      break;
    }
    case 'oidc': {
      if (signIn.oidc === undefined)
        throw new SignInError('provider_not_configured', 'OpenID Connect sign-in is not configured');
      location = await signIn.oidc.buildAuthorizationUrl(attempt);
      break;
    }
    default:
      return assertNever(options.provider);
  }
  return { location, transactionCookie: encodeOauthTransaction(transaction) };
}

/** The redirect URI registered at the provider: `<public origin>/api/auth/<provider>/callback`. */
export function oauthCallbackUrl(publicOrigin: string, provider: IdentityProvider): string {
  return `${publicOrigin}/api/auth/${provider}/callback`;
}

function assertNever(value: never): never {
  throw new Error(`unexpected sign-in provider ${String(value)}`);
}
