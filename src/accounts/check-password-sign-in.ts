import type { GatewayStore } from '../storage/gateway-store.js';
import type { UserRecord } from '../storage/store-records.js';
import type { PasswordHasher } from './password-hash.js';

/** The outcome of an email + password sign-in. */
export interface PasswordSignIn {
  /** the signed-in user, or undefined when the email, the password or the account's state did not allow it */
  user: UserRecord | undefined;
  /** the stored hash should be replaced with one at today's parameters (only set with a user) */
  needsRehash: boolean;
}

/**
 * Checks an email (normalised) and password with the same work on every failure path, so response time does not
 * tell whether an account exists: an unknown email, an account without a password, a disabled account and a wrong
 * password each cost one lookup and one password hash of today's cost.
 */
export async function checkPasswordSignIn(
  store: Pick<GatewayStore, 'findUserByEmail'>,
  hasher: PasswordHasher,
  credentials: { normalisedEmail: string; password: string },
): Promise<PasswordSignIn> {
  const user = await store.findUserByEmail(credentials.normalisedEmail);
  const check = await hasher.verify(credentials.password, user?.passwordHash ?? null);
  if (!user || !check.valid || user.status !== 'active') return { user: undefined, needsRehash: false };
  return { user, needsRehash: check.needsRehash };
}
