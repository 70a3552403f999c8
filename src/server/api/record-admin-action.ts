import { auditActorOfCaller, type AdminAction } from '../../accounts/audit-actor.js';
import type { GatewayStore } from '../../storage/gateway-store.js';
import type { ApiCaller } from './authenticate-api-caller.js';

export type { AdminAction } from '../../accounts/audit-actor.js';

/** Appends an administrator's action to the audit log, naming the signed-in admin or the admin token (id and name). */
export async function recordAdminAction(store: GatewayStore, caller: ApiCaller, action: AdminAction): Promise<void> {
  await store.recordAuditEntry({ ...auditActorOfCaller(caller), ...action });
}
