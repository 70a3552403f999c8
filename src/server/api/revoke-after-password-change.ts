import type { ApiServices, GatewayServices } from '../gateway-services.js';

/** What a password change ended besides the old password. */
export interface PasswordChangeRevocation {
  /** console sessions ended (every one but the caller's) */
  endedSessions: number;
  /** the user's active API keys disabled */
  disabledApiKeys: number;
}

/**
 * Ends what may be in the hands of whoever knew the old password, as the user chose: the other console sessions, and
 * the user's active API keys (disabled as by their owner, then routing is rebuilt and every node told, so they stop
 * working at once on this node and at the next revision check elsewhere).
 */
export async function revokeAfterPasswordChange(
  services: Pick<GatewayServices, 'routing'>,
  api: ApiServices,
  userId: string,
  options: { keepSessionId: string | undefined; sessions: boolean; apiKeys: boolean },
): Promise<PasswordChangeRevocation> {
  const endedSessions = options.sessions
    ? await api.signIn.store.deleteOtherSessions(userId, options.keepSessionId)
    : 0;
  if (!options.apiKeys) return { endedSessions, disabledApiKeys: 0 };
  const activeKeys = (await api.gatewayStore.listApiKeys({ userId })).filter((key) => key.status === 'active');
  if (activeKeys.length === 0) return { endedSessions, disabledApiKeys: 0 };
  await api.billing.exclusive(async () => {
    for (const key of activeKeys) await api.gatewayStore.setApiKeyStatus(key.id, 'disabled', 'owner');
  });
  await services.routing.refresh();
  await api.billing.announceChange();
  return { endedSessions, disabledApiKeys: activeKeys.length };
}
