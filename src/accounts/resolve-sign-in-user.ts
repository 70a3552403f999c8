import { createHash } from 'node:crypto';
import type { GatewayConfig } from '../config/gateway-config.js';
import type { ProviderEmailTrust } from '../config/sign-in-config.js';
import type { GatewayStore } from '../storage/gateway-store.js';
import { IdentityTakenError, type SignInStore } from '../storage/sign-in-store.js';
import type { IdentityRecord } from '../storage/sign-in-records.js';
import type { UserRecord } from '../storage/store-records.js';
import { defaultSignUpPolicy } from '../config/sign-up-config.js';
import { grantDefaultGroups } from './grant-default-groups.js';
import { mayCreateAccount } from './sign-up-policy.js';
import type { ProviderProfile } from './provider-profile.js';
import { SignInError } from './sign-in-error.js';
import { trustedProviderEmail } from './trusted-provider-email.js';

/** What a sign-in or link did. */
export interface ResolvedSignIn {
  user: UserRecord;
  /** `created`: a new account; `linked`: the identity was added to an existing account; `found`: it was known */
  outcome: 'created' | 'linked' | 'found';
}

/** The stores the rules need. */
export interface SignInUserStores {
  gatewayStore: Pick<
    GatewayStore,
    'createUser' | 'findUserByEmail' | 'listModelGroups' | 'grantUserGroups' | 'recordAuditEntry'
  >;
  signInStore: Pick<SignInStore, 'findIdentity' | 'createIdentity' | 'touchIdentity'>;
  findUserById(userId: string): Promise<UserRecord | undefined>;
}

/**
 * The account a verified provider profile signs in to, applying the linking rules (docs/ACCOUNTS.md#linking-rules): a
 * known identity signs in to its user; with `linkingUser` (the signed-in user whose session started a link) the
 * identity is added to that user; otherwise an account with the same email is linked only when the email is trusted
 * (`emailTrust`) and the account is neither an administrator nor has a password (those are refused with
 * `email_in_use`: they link from their own session); otherwise a new user is made (role `user`, no password, the
 * default groups) if the sign-up policy allows it (`sign_up_closed` otherwise). Every link is written to the audit
 * log. Disabled users are refused.
 */
export async function resolveSignInUser(
  stores: SignInUserStores,
  profile: ProviderProfile,
  options: {
    linkingUser: UserRecord | undefined;
    emailTrust: ProviderEmailTrust;
    config: Pick<GatewayConfig, 'defaultUserGroups' | 'signUp'>;
    now: number;
  },
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
    const user = requireActive(options.linkingUser);
    await recordLink(stores, user, await linkIdentity(stores, profile, user), 'signed-in user');
    return { user, outcome: 'linked' };
  }
  const trustedEmail = trustedProviderEmail(profile, options.emailTrust);
  const sameEmail = trustedEmail === undefined ? undefined : await stores.gatewayStore.findUserByEmail(trustedEmail);
  if (sameEmail !== undefined) {
    // An email claim is weaker than the account's own way in: such accounts link only from a signed-in session.
    if (sameEmail.role === 'admin' || sameEmail.passwordHash !== null)
      throw new SignInError(
        'email_in_use',
        `${profile.provider} email belongs to an account that links providers only while signed in`,
      );
    const user = requireActive(sameEmail);
    await recordLink(stores, user, await linkIdentity(stores, profile, user), 'verified email');
    return { user, outcome: 'linked' };
  }
  if (!mayCreateAccount(options.config.signUp ?? defaultSignUpPolicy, trustedEmail, profile.githubOrganizations))
    throw new SignInError('sign_up_closed', `sign-up is ${options.config.signUp?.mode ?? 'open'}: no account created`);
  const user = await stores.gatewayStore.createUser({
    // Without a trusted email the account gets a placeholder: an address the gateway cannot rely on must never claim
    // an email that someone may later prove is theirs.
    email: trustedEmail ?? placeholderEmail(profile),
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

async function linkIdentity(
  stores: SignInUserStores,
  profile: ProviderProfile,
  user: UserRecord,
): Promise<IdentityRecord> {
  try {
    return await stores.signInStore.createIdentity({
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

/** `identity.link` in the audit log, by the account's owner, saying how the link was decided. */
async function recordLink(
  stores: SignInUserStores,
  user: UserRecord,
  identity: IdentityRecord,
  linkedBy: 'signed-in user' | 'verified email',
): Promise<void> {
  await stores.gatewayStore.recordAuditEntry({
    actorUserId: user.id,
    actorLabel: user.email,
    actorKind: 'user',
    actorId: null,
    action: 'identity.link',
    targetType: 'user',
    targetId: user.id,
    details: {
      identityId: identity.id,
      provider: identity.provider,
      displayName: identity.displayName,
      email: identity.email,
      linkedBy,
    },
  });
}

function requireActive(user: UserRecord | undefined): UserRecord {
  if (user === undefined || user.status !== 'active')
    throw new SignInError('account_disabled', 'the account is disabled or gone');
  return user;
}
