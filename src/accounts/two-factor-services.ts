import type { TwoFactorStore } from '../storage/two-factor-store.js';
import type { LoginAttemptLimiter } from './login-attempt-limiter.js';
import type { SecretBox } from './secret-box.js';

/** What two-factor sign-in works with. */
export interface TwoFactorServices {
  store: TwoFactorStore;
  /** seals TOTP secrets before they are stored */
  secretBox: SecretBox;
  /** wrong codes lock like wrong passwords (per account and address) */
  attempts: LoginAttemptLimiter;
  /** GATEWAY_REQUIRE_ADMIN_TWO_FACTOR: an admin without two-factor may only set it up */
  requireForAdmins: boolean;
  /** the issuer name authenticator apps show */
  issuer: string;
}
