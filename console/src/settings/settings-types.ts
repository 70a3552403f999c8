// The /api answers the Settings page reads (docs/API.md "Console API").

/** A sign-in provider an identity comes from. */
export type IdentityProvider = 'github' | 'oidc';

/** One linked sign-in identity (GET /api/me/identities). */
export interface LinkedIdentity {
  id: string;
  provider: IdentityProvider;
  displayName: string;
  email: string | null;
  /** Unix milliseconds */
  createdAt: number;
  /** Unix milliseconds, or null */
  lastUsedAt: number | null;
}

/** POST /api/me/identities/link: where to send the browser to link a provider account */
export interface IdentityLinkStart {
  provider: IdentityProvider;
  authorizationUrl: string;
}

/** GET /api/me/identities */
export interface IdentityList {
  hasPassword: boolean;
  data: LinkedIdentity[];
}

/** One of my console sessions (GET /api/auth/sessions). */
export interface ConsoleSession {
  id: string;
  /** Unix milliseconds */
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
  userAgent: string | null;
  clientIp: string | null;
  /** the session this browser is using */
  current: boolean;
}

/** POST /api/me/password */
export interface PasswordChanged {
  changed: true;
  /** how many other sessions ended */
  endedSessions: number;
  /** how many of the user's API keys were disabled */
  disabledApiKeys: number;
}

/** GET /api/me/two-factor. */
export interface TwoFactorState {
  enabled: boolean;
  enabledAt: number | null;
  recoveryCodesLeft: number;
  /** an admin on a gateway with GATEWAY_REQUIRE_ADMIN_TWO_FACTOR on */
  required: boolean;
}

/** POST /api/me/two-factor/enrol. */
export interface TwoFactorEnrolment {
  secret: string;
  otpauthUri: string;
}
