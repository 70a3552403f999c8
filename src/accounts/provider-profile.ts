import type { IdentityProvider } from '../storage/sign-in-records.js';

/** Who a sign-in provider says the user is, after the provider's answer was verified. */
export interface ProviderProfile {
  provider: IdentityProvider;
  /** GitHub's numeric user id, or the OIDC issuer and `sub` joined by a space */
  subject: string;
  /** an email the provider reported, or null */
  email: string | null;
  /** true only when the provider says `email` is verified: the sole condition for linking to an existing account */
  emailVerified: boolean;
  /** the provider's name or login, for display */
  displayName: string;
  /** GitHub only, when sign-up checks organisations: the logins of the organisations the user is a member of */
  githubOrganizations?: string[];
}
