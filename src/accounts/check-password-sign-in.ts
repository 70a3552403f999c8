import type { GatewayStore } from '../storage/gateway-store.js';
import type { UserRecord } from '../storage/store-records.js';
import type { LoginAttemptLimiter } from './login-attempt-limiter.js';
import { hashNormalisedEmail } from './normalise-email.js';
import type { PasswordHasher } from './password-hash.js';

/** The outcome of an email + password sign-in. */
export interface PasswordSignIn {
  /** the signed-in user, or undefined when the email, the password or the account's state did not allow it */
  user: UserRecord | undefined;
  /** the stored hash should be replaced with one at today's parameters (only set with a user) */
  needsRehash: boolean;
}

/**
 * Checks an email (normalised) and password under the sign-in limits (429 while locked or while another check of
 * the account runs), with the same work on every failure path, so response time does not tell whether an account
 * exists: an unknown email, an account without a password, a disabled account and a wrong password each cost one
 * lookup and one password hash of today's cost (or, past an address's unknown-email budget, as long without it).
 */
export async function checkPasswordSignIn(
  store: Pick<GatewayStore, 'findUserByEmail'>,
  hasher: PasswordHasher,
  attempts: LoginAttemptLimiter,
  credentials: { normalisedEmail: string; password: string; address: string },
): Promise<PasswordSignIn> {
  const user = await store.findUserByEmail(credentials.normalisedEmail);
  const signable = user !== undefined && user.passwordHash !== null && user.status === 'active';
  const subject = { emailHash: hashNormalisedEmail(credentials.normalisedEmail), address: credentials.address };
  const check = await attempts.checkPassword(subject, signable, async () => {
    const outcome = await hasher.verify(credentials.password, user?.passwordHash ?? null);
    return { valid: outcome.valid && signable, needsRehash: outcome.needsRehash };
  });
  if (!user || !check.valid) return { user: undefined, needsRehash: false };
  return { user, needsRehash: check.needsRehash };
}
