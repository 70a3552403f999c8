/** Row shapes of sign-in: identities, console sessions and admin tokens; timestamps are Unix milliseconds. */

/** Which sign-in provider an identity comes from. */
export type IdentityProvider = 'github' | 'oidc';

/** A way in from a sign-in provider, linked to one user. */
export interface IdentityRecord {
  /** `idn_...` */
  id: string;
  userId: string;
  provider: IdentityProvider;
  /** GitHub's numeric user id, or the OIDC issuer and `sub` joined by a space */
  subject: string;
  /** the email the provider reported at the last sign-in, verified or not */
  email: string | null;
  /** the provider's login or name */
  displayName: string;
  createdAt: number;
  /** the last sign-in through this identity */
  lastUsedAt: number;
}

/** A new identity. */
export type NewIdentity = Pick<IdentityRecord, 'userId' | 'provider' | 'subject' | 'email' | 'displayName'>;

/** A signed-in console session, without its token hash. */
export interface ConsoleSessionRecord {
  /** `ses_...` */
  id: string;
  userId: string;
  createdAt: number;
  /** the last authenticated request (updated at most once a minute) */
  lastSeenAt: number;
  expiresAt: number;
  /** the browser's User-Agent at sign-in */
  userAgent: string | null;
  /** the client address at sign-in */
  clientIp: string | null;
}

/** A new session: the token's SHA-256 and where it was made. */
export interface NewConsoleSession {
  tokenHash: string;
  userId: string;
  expiresAt: number;
  userAgent: string | null;
  clientIp: string | null;
}

/** An admin token from `gateway admin token`, without its hash. */
export interface AdminTokenRecord {
  /** `adm_...` */
  id: string;
  name: string;
  createdAt: number;
  /** refused after this */
  expiresAt: number;
}
