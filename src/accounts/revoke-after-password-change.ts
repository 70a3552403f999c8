import type { SignInStore } from '../storage/sign-in-store.js';
import type { AccountActor } from './account-actor.js';
import type { ApiKeyService } from './api-key-service.js';

/** What a password change ended besides the old password. */
export interface PasswordChangeRevocation {
  /** console sessions ended (every one but the caller's) */
  endedSessions: number;
  /** the user's active API keys disabled */
  disabledApiKeys: number;
}

/**
 * Ends what may be in the hands of whoever knew the old password, as the user chose: the other console sessions, and
 * the user's active API keys, disabled as by their owner through the key service, key by key (each audited, each
 * applied to that key alone: no full routing or billing reload), so they stop at once on this node and at the next
 * revision check elsewhere.
 */
export async function revokeAfterPasswordChange(
  dependencies: {
    sessions: Pick<SignInStore, 'deleteOtherSessions'>;
    apiKeys: Pick<ApiKeyService, 'disableActiveKeysOf'>;
  },
  actor: AccountActor,
  userId: string,
  options: { keepSessionId: string | undefined; sessions: boolean; apiKeys: boolean },
): Promise<PasswordChangeRevocation> {
  const endedSessions = options.sessions
    ? await dependencies.sessions.deleteOtherSessions(userId, options.keepSessionId)
    : 0;
  const disabledApiKeys = options.apiKeys ? await dependencies.apiKeys.disableActiveKeysOf(actor, userId) : 0;
  return { endedSessions, disabledApiKeys };
}
