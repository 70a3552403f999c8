import { GatewayError } from '../core/gateway-error.js';

/**
 * The cap on keys per user (GATEWAY_MAX_KEYS_PER_USER; 0 = no cap): a user who holds `keyCount` keys may create
 * another only below the cap, else 400 saying so (delete a key first). Administrators are exempt: they create keys
 * for themselves and others as operators, so `actor` `admin` always passes. Disabled and expired keys count, since each
 * still weighs on every routing and billing reload.
 */
export function requireRoomForAnotherKey(actor: 'owner' | 'admin', keyCount: number, maxKeysPerUser: number): void {
  if (actor === 'admin' || maxKeysPerUser <= 0 || keyCount < maxKeysPerUser) return;
  throw new GatewayError(
    'invalid_request_error',
    `You have ${keyCount} API keys, the most a user may hold (GATEWAY_MAX_KEYS_PER_USER is ${maxKeysPerUser}); delete one you no longer use first, or ask an administrator.`,
  );
}
