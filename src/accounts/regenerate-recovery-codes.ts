import { GatewayError } from '../core/gateway-error.js';
import type { UserRecord } from '../storage/store-records.js';
import { createRecoveryCodes, hashRecoveryCode } from './totp.js';
import { checkSecondFactor } from './two-factor.js';
import type { TwoFactorServices } from './two-factor-services.js';

/**
 * Replaces a user's recovery codes with ten new ones (shown once) after a current authenticator code, checked under
 * the same limits as at sign-in; every old code, used or not, stops working. A wrong or reused code is a 400 on
 * `code` (the caller's session stays valid); 400 as well when two-factor is not on.
 */
export async function regenerateRecoveryCodes(
  services: TwoFactorServices,
  user: UserRecord,
  code: string,
  options: { address: string; now: number },
): Promise<string[]> {
  await checkSecondFactor(services, user, { kind: 'code', code }, options).catch((error: unknown) => {
    if (error instanceof GatewayError && error.code === 'unauthorized')
      throw new GatewayError('invalid_request_error', error.message, { param: 'code' });
    throw error;
  });
  const recoveryCodes = createRecoveryCodes();
  const replaced = await services.store.replaceRecoveryCodes(
    user.id,
    recoveryCodes.map((recoveryCode) => hashRecoveryCode(user.id, recoveryCode)),
  );
  if (!replaced) throw new GatewayError('invalid_request_error', 'Two-factor sign-in is not on.');
  return recoveryCodes;
}
