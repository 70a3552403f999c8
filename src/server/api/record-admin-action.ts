import type { AuditAction } from '../../storage/audit-actions.js';
import type { GatewayStore } from '../../storage/gateway-store.js';
import type { ApiCaller } from './authenticate-api-caller.js';

/** One administrator action for the audit log: what was done to which record, with what changed (never a secret). */
export interface AdminAction {
  /** dotted verb, e.g. `user.credit`, `user.groups.set`, `channel.update`, `order.recheck` */
  action: AuditAction;
  /** kind of record acted on, e.g. `user`, `channel`, `order` */
  targetType: string;
  targetId: string | null;
  details: Record<string, unknown>;
}

/** Appends an administrator's action to the audit log, naming the signed-in admin or the admin token. */
export async function recordAdminAction(store: GatewayStore, caller: ApiCaller, action: AdminAction): Promise<void> {
  await store.recordAuditEntry({
    actorUserId: caller.user?.id ?? null,
    actorLabel: caller.user?.email ?? 'admin token',
    ...action,
  });
}
