import type * as openid from 'openid-client';
import type { OidcSignInConfig } from '../config/sign-in-config.js';
import { loadOpenidClient } from './load-openid-client.js';
import { isPlainHttpLoopback } from './public-origin.js';
import type { ProviderProfile } from './provider-profile.js';
import { SignInError } from './sign-in-error.js';

/**
 * An OpenID Connect provider reached through `openid-client`: discovery at the first use (retried after a failure),
 * authorization code flow with PKCE, state and nonce, and an ID token verified by the library.
 */
export class OidcSignIn {
  private configuration: Promise<openid.Configuration> | undefined;

  constructor(private readonly config: OidcSignInConfig) {}

  /** The provider's authorize URL for one attempt. */
  async buildAuthorizationUrl(attempt: {
    redirectUri: string;
    state: string;
    nonce: string;
    codeChallenge: string;
  }): Promise<string> {
    const configuration = await this.discover();
    const client = await loadOpenidClient();
    return client
      .buildAuthorizationUrl(configuration, {
        redirect_uri: attempt.redirectUri,
        scope: 'openid email profile',
        state: attempt.state,
        nonce: attempt.nonce,
        code_challenge: attempt.codeChallenge,
        code_challenge_method: 'S256',
      })
      .toString();
  }

  /** Redeems the code at the callback URL, checking state, nonce and the ID token; identifies the user by `iss` and `sub`. */
  async fetchProfile(callback: {
    callbackUrl: URL;
    state: string;
    nonce: string;
    codeVerifier: string;
  }): Promise<ProviderProfile> {
    const configuration = await this.discover();
    const client = await loadOpenidClient();
    let claims: openid.IDToken | undefined;
    try {
      const tokens = await client.authorizationCodeGrant(configuration, callback.callbackUrl, {
        pkceCodeVerifier: callback.codeVerifier,
        expectedState: callback.state,
        expectedNonce: callback.nonce,
        idTokenExpected: true,
      });
      claims = tokens.claims();
    } catch (error) {
      if (error instanceof client.AuthorizationResponseError && error.error === 'access_denied')
        throw new SignInError('access_denied', 'the user declined at the provider', { cause: error });
      throw new SignInError('provider_error', `the OpenID provider's answer was refused: ${describe(error)}`, {
        cause: error,
      });
    }
    if (claims === undefined) throw new SignInError('provider_error', 'the OpenID provider returned no ID token');
    const email = typeof claims.email === 'string' ? claims.email : null;
    const name = [claims.name, claims.preferred_username, email, claims.sub].find(
      (value): value is string => typeof value === 'string' && value.length > 0,
    );
    return {
      provider: 'oidc',
      subject: `${claims.iss} ${claims.sub}`,
      email,
      emailVerified: email !== null && claims.email_verified === true,
      displayName: name ?? claims.sub,
    };
  }

  private discover(): Promise<openid.Configuration> {
    if (this.configuration === undefined) {
      const issuer = new URL(this.config.issuer);
      // Plain http only for a provider on loopback (tests, a local Keycloak); anything else must be https.
      const insecure = isPlainHttpLoopback(issuer.origin);
      this.configuration = loadOpenidClient()
        .then((client) =>
          client.discovery(
            issuer,
            this.config.clientId,
            this.config.clientSecret,
            undefined,
            insecure ? { execute: [client.allowInsecureRequests] } : undefined,
          ),
        )
        .catch((error: unknown) => {
          this.configuration = undefined;
          throw new SignInError('provider_error', `OpenID discovery at ${issuer.origin} failed: ${describe(error)}`, {
            cause: error,
          });
        });
    }
    return this.configuration;
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
