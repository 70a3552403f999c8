import { GatewayError } from '../core/gateway-error.js';
import type { AccountAdminStore } from '../storage/account-admin-store.js';
import type { GatewayStore } from '../storage/gateway-store.js';
import type { UserRecord } from '../storage/store-records.js';
import type { AuditActor } from './audit-actor.js';

/**
 * Disables or enables a user for the /api and the CLI alike: a disabled user cannot sign in, their sessions end at
 * once and their keys stop at the next routing refresh. An administrator cannot disable their own account (400); an
 * unknown user is 404. Writes `user.disable` or `user.enable` to the audit log. The caller announces the change.
 */
export async function changeUserStatus(
  stores: {
    accountAdmin: Pick<AccountAdminStore, 'setUserStatus'>;
    gatewayStore: Pick<GatewayStore, 'recordAuditEntry'>;
    /** the billing writer's exclusive section, so the change does not interleave with a settlement batch */
    exclusive: <Result>(work: () => Promise<Result>) => Promise<Result>;
  },
  userId: string,
  status: UserRecord['status'],
  actor: AuditActor,
): Promise<void> {
  if (status === 'disabled' && actor.actorUserId === userId)
    throw new GatewayError('invalid_request_error', 'An administrator cannot disable their own account.', {
      param: 'userId',
    });
  const changed = await stores.exclusive(() => stores.accountAdmin.setUserStatus(userId, status));
  if (!changed) throw new GatewayError('not_found', 'No such user.');
  await stores.gatewayStore.recordAuditEntry({
    ...actor,
    action: status === 'disabled' ? 'user.disable' : 'user.enable',
    targetType: 'user',
    targetId: userId,
    details: { status },
  });
}
