import type { UserRecord } from './store-records.js';
import type {
  AdminTokenRecord,
  ConsoleSessionRecord,
  IdentityProvider,
  IdentityRecord,
  NewConsoleSession,
  NewIdentity,
} from './sign-in-records.js';

/** A live session and its user, as the /api authentication sees them. */
export interface SessionWithUser {
  session: ConsoleSessionRecord;
  user: UserRecord;
}

/** Durable identities, console sessions and admin tokens. */
export interface SignInStore {
  migrate(): Promise<void>;
  close(): Promise<void>;

  findIdentity(provider: IdentityProvider, subject: string): Promise<IdentityRecord | undefined>;
  /** throws IdentityTakenError when (provider, subject) is linked already */
  createIdentity(identity: NewIdentity): Promise<IdentityRecord>;
  /** stores the provider's latest email and name and the time of this sign-in */
  touchIdentity(
    identityId: string,
    changes: { email: string | null; displayName: string; lastUsedAt: number },
  ): Promise<void>;
  listIdentities(userId: string): Promise<IdentityRecord[]>;
  /**
   * deletes one of the user's identities unless it is the user's last way in (no password and no other identity);
   * `removed` false when the user has no such identity
   */
  deleteIdentity(userId: string, identityId: string): Promise<{ removed: boolean; lastWayIn: boolean }>;

  createSession(session: NewConsoleSession): Promise<ConsoleSessionRecord>;
  /** the live session of a token hash and its user; bumps `lastSeenAt` when it is older than a minute */
  findSession(tokenHash: string, now: number): Promise<SessionWithUser | undefined>;
  /** the user's sessions that have not expired, newest first */
  listSessions(userId: string, now: number): Promise<ConsoleSessionRecord[]>;
  deleteSessionByTokenHash(tokenHash: string): Promise<void>;
  /** deletes one of the user's sessions; false when the user has none with that id */
  deleteSession(userId: string, sessionId: string): Promise<boolean>;
  /** deletes every session of the user except one; returns how many */
  deleteOtherSessions(userId: string, keepSessionId: string | undefined): Promise<number>;

  createAdminToken(token: { tokenHash: string; name: string; expiresAt: number }): Promise<AdminTokenRecord>;
  /** the token of a hash, unless it expired */
  findAdminToken(tokenHash: string, now: number): Promise<AdminTokenRecord | undefined>;
  listAdminTokens(): Promise<AdminTokenRecord[]>;
  /** false when no token has that id */
  deleteAdminToken(tokenId: string): Promise<boolean>;
}

/** Thrown when a (provider, subject) pair is already linked to a user. */
export class IdentityTakenError extends Error {
  constructor() {
    super('This identity is already linked to an account.');
    this.name = 'IdentityTakenError';
  }
}
