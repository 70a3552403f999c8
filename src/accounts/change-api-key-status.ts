import { GatewayError } from '../core/gateway-error.js';
import { KeyDisabledByAdminError } from '../storage/gateway-store-errors.js';
import type { GatewayStore } from '../storage/gateway-store.js';
import type { ApiKeyRecord } from '../storage/store-records.js';
import type { AuditActor } from './audit-actor.js';
import type { KeyLimitActor } from './plan-key-limit-change.js';

/**
 * Disables or enables a key for the /api and the CLI alike, and writes `key.disable` or `key.enable` to the audit log
 * naming who did it (owner or administrator). An owner cannot enable a key an administrator disabled (403). Call it
 * inside the billing writer's exclusive section.
 */
export async function changeApiKeyStatus(
  store: Pick<GatewayStore, 'setApiKeyStatus' | 'recordAuditEntry'>,
  key: Pick<ApiKeyRecord, 'id' | 'userId' | 'status'>,
  status: ApiKeyRecord['status'],
  actor: KeyLimitActor,
  auditActor: AuditActor,
): Promise<void> {
  try {
    await store.setApiKeyStatus(key.id, status, actor);
  } catch (error) {
    if (error instanceof KeyDisabledByAdminError)
      throw new GatewayError(
        'forbidden',
        'An administrator disabled this key; only an administrator can enable it again.',
      );
    throw error;
  }
  await store.recordAuditEntry({
    ...auditActor,
    action: status === 'disabled' ? 'key.disable' : 'key.enable',
    targetType: 'api_key',
    targetId: key.id,
    details: { userId: key.userId, statusBefore: key.status, status, by: actor },
  });
}
