import type { SignInConfig } from '../config/sign-in-config.js';
import type { SignInStore } from '../storage/sign-in-store.js';
import { OidcSignIn } from './oidc-sign-in.js';

/** What the sign-in routes work with: identities, sessions and admin tokens, and the configured providers. */
export interface SignInServices {
  store: SignInStore;
  config: SignInConfig;
  /** the OpenID provider when configured (discovered at its first use) */
  oidc: OidcSignIn | undefined;
}

/** Sign-in services over a store and the configuration. */
export function createSignInServices(store: SignInStore, config: SignInConfig | undefined): SignInServices {
  const signInConfig: SignInConfig = config ?? { publicUrl: undefined, github: undefined, oidc: undefined };
  return {
    store,
    config: signInConfig,
    oidc: signInConfig.oidc === undefined ? undefined : new OidcSignIn(signInConfig.oidc),
  };
}
