import { GatewayError } from '../core/gateway-error.js';
import type { KeyPrincipal } from '../routing/routing-table.js';
import type { BillingRuntime } from './billing-runtime.js';
import { isAddressAllowed, type KeyMoney } from './billing-memory.js';
import { effectiveLimits, type LimitSubject } from './request-rate-limiter.js';

/** The key's money and restrictions, and the rate-limit subjects (key, user) that apply to a request. */
export interface AdmissionSubject {
  /** undefined for a key made outside the /api (no billing settings of its own) */
  key: KeyMoney | undefined;
  /** the key's and the user's limits, where any is set */
  limitSubjects: LimitSubject[];
}

/**
 * The first steps of every admission: know the key (a key made a moment ago, maybe on another node, must not be
 * used before its allow-list and cap are known), refuse an address outside its allow-list (403), and collect the
 * rate limits in force.
 */
export async function resolveAdmissionSubject(
  runtime: BillingRuntime,
  principal: KeyPrincipal,
  clientIp: string,
): Promise<AdmissionSubject> {
  const { memory } = runtime;
  if (memory.shouldLookForKey(principal.apiKeyId)) {
    await runtime.refresh(false);
    memory.markKeyMissing(principal.apiKeyId);
  }
  return resolveKnownAdmissionSubject(runtime, principal, clientIp);
}

/** `resolveAdmissionSubject` once the key has been looked for (`memory.shouldLookForKey` is false): nothing to wait for. */
export function resolveKnownAdmissionSubject(
  runtime: BillingRuntime,
  principal: KeyPrincipal,
  clientIp: string,
): AdmissionSubject {
  const { memory } = runtime;
  const { config } = runtime.options;
  const key = memory.key(principal.apiKeyId);
  if (key && !isAddressAllowed(key.allowedAddresses, clientIp)) {
    throw new GatewayError('forbidden', `This API key may not be used from ${clientIp}.`);
  }
  const limitSubjects: LimitSubject[] = [];
  const keyLimits = effectiveLimits(
    key?.limits ?? { requestsPerMinute: null, tokensPerMinute: null, maxConcurrentRequests: null },
    config.keyLimits,
  );
  const userLimits = effectiveLimits(memory.user(principal.userId).limits, config.userLimits);
  if (hasAnyLimit(keyLimits)) limitSubjects.push({ scope: 'key', id: principal.apiKeyId, limits: keyLimits });
  if (hasAnyLimit(userLimits)) limitSubjects.push({ scope: 'user', id: principal.userId, limits: userLimits });
  return { key, limitSubjects };
}

function hasAnyLimit(limits: LimitSubject['limits']): boolean {
  return limits.requestsPerMinute > 0 || limits.tokensPerMinute > 0 || limits.maxConcurrentRequests > 0;
}
