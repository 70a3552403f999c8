import { createHash } from 'node:crypto';
import type { GatewayConfig } from '../config/gateway-config.js';
import type { GatewayStore } from '../storage/gateway-store.js';
import { IdentityTakenError, type SignInStore } from '../storage/sign-in-store.js';
import type { UserRecord } from '../storage/store-records.js';
import { grantDefaultGroups } from './grant-default-groups.js';
import { normaliseEmail } from './normalise-email.js';
import type { ProviderProfile } from './provider-profile.js';
import { SignInError } from './sign-in-error.js';

/** What a sign-in or link did. */
export interface ResolvedSignIn {
  user: UserRecord;
  /** `created`: a new account; `linked`: the identity was added to an existing account; `found`: it was known */
  outcome: 'created' | 'linked' | 'found';
}

/** The stores the rules need. */
export interface SignInUserStores {
  gatewayStore: Pick<GatewayStore, 'createUser' | 'findUserByEmail' | 'listModelGroups' | 'grantUserGroups'>;
  signInStore: Pick<SignInStore, 'findIdentity' | 'createIdentity' | 'touchIdentity'>;
  findUserById(userId: string): Promise<UserRecord | undefined>;
}

/**
 * The account a verified provider profile signs in to, applying the linking rules: a known identity signs in to its
 * user; with `linkingUser` (a signed-in user who started the flow) the identity is added to that user; otherwise an
 * account with the same email is linked only when the provider says the email is verified; otherwise a new user is
 * made (role `user`, no password, the default groups). Disabled users are refused.
 */
export async function resolveSignInUser(
  stores: SignInUserStores,
  profile: ProviderProfile,
  options: { linkingUser: UserRecord | undefined; config: Pick<GatewayConfig, 'defaultUserGroups'>; now: number },
): Promise<ResolvedSignIn> {
  const known = await stores.signInStore.findIdentity(profile.provider, profile.subject);
  if (known !== undefined) {
    if (options.linkingUser !== undefined && known.userId !== options.linkingUser.id) {
      throw new SignInError('identity_in_use', `${profile.provider} identity is linked to another account`);
    }
    const user = requireActive(await stores.findUserById(known.userId));
    await stores.signInStore.touchIdentity(known.id, {
      email: profile.email,
      displayName: profile.displayName,
      lastUsedAt: options.now,
    });
    return { user, outcome: 'found' };
  }
  if (options.linkingUser !== undefined) {
    await linkIdentity(stores, profile, requireActive(options.linkingUser));
    return { user: options.linkingUser, outcome: 'linked' };
  }
  const verifiedEmail = profile.emailVerified && profile.email !== null ? normaliseEmail(profile.email) : undefined;
  const sameEmail = verifiedEmail === undefined ? undefined : await stores.gatewayStore.findUserByEmail(verifiedEmail);
  if (sameEmail !== undefined) {
    await linkIdentity(stores, profile, requireActive(sameEmail));
    return { user: sameEmail, outcome: 'linked' };
  }
  const user = await stores.gatewayStore.createUser({
    // Without a verified email the account gets a placeholder: an unverified address must never claim an email
    // that someone may later prove is theirs.
    email: verifiedEmail ?? placeholderEmail(profile),
    displayName: profile.displayName.slice(0, 200),
    role: 'user',
    passwordHash: null,
  });
  await grantDefaultGroups(stores.gatewayStore, user.id, options.config);
  await linkIdentity(stores, profile, user);
  return { user, outcome: 'created' };
}

/** `github-<16 hex of the subject's SHA-256>@users.invalid`: unique per identity, never deliverable (RFC 2606). */
export function placeholderEmail(profile: Pick<ProviderProfile, 'provider' | 'subject'>): string {
  return `${profile.provider}-${createHash('sha256').update(profile.subject).digest('hex').slice(0, 16)}@users.invalid`;
}

async function linkIdentity(stores: SignInUserStores, profile: ProviderProfile, user: UserRecord): Promise<void> {
  try {
    await stores.signInStore.createIdentity({
      userId: user.id,
      provider: profile.provider,
      subject: profile.subject,
      email: profile.email,
      displayName: profile.displayName,
    });
  } catch (error) {
    // Two callbacks of the same identity at once: the other one linked it first.
    if (error instanceof IdentityTakenError)
      throw new SignInError('identity_in_use', 'the identity was linked concurrently', { cause: error });
    throw error;
  }
}

function requireActive(user: UserRecord | undefined): UserRecord {
  if (user === undefined || user.status !== 'active')
    throw new SignInError('account_disabled', 'the account is disabled or gone');
  return user;
}
