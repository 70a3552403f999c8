/**
 * Why a social sign-in failed, as the `error` query parameter of `/sign-in?error=<code>`: `access_denied` (the user
 * declined at the provider), `invalid_state` (no matching transaction: expired, replayed or forged callback),
 * `provider_error` (the provider refused the code or answered something unusable), `account_disabled`,
 * `identity_in_use` (linking an identity another account holds), `email_in_use` (a new identity whose verified email
 * belongs to an administrator or an account with a password: it must be linked from that account), `not_signed_in` (a
 * link flow whose session ended or is not the one that started it), `sign_up_closed` (a new identity that would make an
 * account while GATEWAY_SIGNUP does not allow it), `provider_not_configured`.
 */
export type SignInErrorCode =
  | 'access_denied'
  | 'invalid_state'
  | 'provider_error'
  | 'account_disabled'
  | 'identity_in_use'
  | 'email_in_use'
  | 'not_signed_in'
  | 'sign_up_closed'
  | 'provider_not_configured';

/** A sign-in failure with the code the sign-in page is redirected with; `message` is for the log only. */
export class SignInError extends Error {
  constructor(
    readonly code: SignInErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'SignInError';
  }
}
