import type { GatewayStore } from '../storage/gateway-store.js';
import type { ApiKeyRecord } from '../storage/store-records.js';
import type { AuditActor } from './audit-actor.js';
import type { KeyLimitActor } from './plan-key-limit-change.js';

/**
 * Deletes a key for the /api and the CLI alike and writes `key.delete` to the audit log naming who did it (owner or
 * administrator), as `changeApiKeyStatus` does for disable and enable. Call it inside the billing writer's exclusive
 * section.
 */
export async function deleteApiKey(
  store: Pick<GatewayStore, 'deleteApiKey' | 'recordAuditEntry'>,
  key: Pick<ApiKeyRecord, 'id' | 'userId' | 'name' | 'status'>,
  actor: KeyLimitActor,
  auditActor: AuditActor,
): Promise<void> {
  await store.deleteApiKey(key.id);
  await store.recordAuditEntry({
    ...auditActor,
    action: 'key.delete',
    targetType: 'api_key',
    targetId: key.id,
    details: { userId: key.userId, name: key.name, statusBefore: key.status, by: actor },
  });
}
