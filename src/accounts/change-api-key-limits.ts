import type { ApiKeyBillingRecord } from '../storage/billing-records.js';
import type { BillingStore } from '../storage/billing-store.js';
import type { GatewayStore } from '../storage/gateway-store.js';
import type { RequestLimits } from '../storage/billing-records.js';
import { planKeyLimitChange, type KeyLimitActor } from './plan-key-limit-change.js';

/** One edit of a key: every field optional; an absent field keeps its value, null clears it where that means "none". */
export interface ApiKeyChanges {
  name?: string | undefined;
  /** Unix milliseconds, or null for never */
  expiresAt?: number | null | undefined;
  /** micro-units, or null for no cap */
  spendingCap?: number | null | undefined;
  allowedIps?: string[] | undefined;
  limits?: { [Name in keyof RequestLimits]?: RequestLimits[Name] | undefined } | undefined;
}

/** A key's current spending cap, allow-list and request limits, or undefined when none were ever stored. */
export type CurrentKeyBilling = Pick<ApiKeyBillingRecord, 'spendingCap' | 'allowedIps' | 'limits'> | undefined;

/**
 * Applies an edit of a key for the /api and the CLI alike: the administrator bounds follow planKeyLimitChange (an
 * owner may tighten, never loosen, what an administrator set; 403 otherwise), then the name and expiry, then the
 * spending cap, allow-list and request limits, each absent field kept from `current`. Call it inside the billing
 * writer's exclusive section, so a bound set meanwhile on this node is respected.
 */
export async function changeApiKeyLimits(
  stores: {
    gatewayStore: Pick<GatewayStore, 'findApiKeyAdminLimits' | 'setApiKeyAdminLimits' | 'updateApiKey'>;
    billingStore: Pick<BillingStore, 'setApiKeyBilling'>;
  },
  actor: KeyLimitActor,
  apiKeyId: string,
  current: CurrentKeyBilling,
  changes: ApiKeyChanges,
): Promise<void> {
  const { gatewayStore, billingStore } = stores;
  const limitChanges = changes.limits ?? {};
  const adminLimits = await gatewayStore.findApiKeyAdminLimits(apiKeyId);
  const nextAdminLimits = planKeyLimitChange(actor, adminLimits, {
    expiresAt: changes.expiresAt,
    spendingCap: changes.spendingCap,
    allowedIps: changes.allowedIps,
    ...limitChanges,
  });
  if (nextAdminLimits !== adminLimits) await gatewayStore.setApiKeyAdminLimits(apiKeyId, nextAdminLimits);
  if (changes.name !== undefined || changes.expiresAt !== undefined)
    await gatewayStore.updateApiKey(apiKeyId, { name: changes.name, expiresAt: changes.expiresAt });
  if (changes.spendingCap === undefined && changes.allowedIps === undefined && changes.limits === undefined) return;
  const currentLimits = current?.limits ?? {
    requestsPerMinute: null,
    tokensPerMinute: null,
    maxConcurrentRequests: null,
  };
  const pick = <Value>(change: Value | undefined, kept: Value): Value => (change !== undefined ? change : kept);
  await billingStore.setApiKeyBilling(apiKeyId, {
    spendingCap: pick(changes.spendingCap, current?.spendingCap ?? null),
    allowedIps: changes.allowedIps ?? current?.allowedIps ?? [],
    limits: {
      requestsPerMinute: pick(limitChanges.requestsPerMinute, currentLimits.requestsPerMinute),
      tokensPerMinute: pick(limitChanges.tokensPerMinute, currentLimits.tokensPerMinute),
      maxConcurrentRequests: pick(limitChanges.maxConcurrentRequests, currentLimits.maxConcurrentRequests),
    },
  });
}
