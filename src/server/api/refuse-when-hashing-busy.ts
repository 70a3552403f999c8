import { PasswordHashingBusyError } from '../../accounts/password-hash.js';
import { GatewayError } from '../../core/gateway-error.js';

/** Turns "too many password hashes waiting" into 429 with `Retry-After`, so a flood is told to come back rather than queued without end; rethrows anything else. */
export function refuseWhenHashingBusy(error: unknown): never {
  if (error instanceof PasswordHashingBusyError) {
    throw new GatewayError(
      'rate_limit_exceeded',
      'Too many passwords are being checked right now. Retry in a moment.',
      { headers: { 'retry-after': '1' } },
    );
  }
  throw error;
}
