import type { TFunction } from 'i18next';

/** The `error` codes the sign-in callbacks redirect with (docs/API.md, /api/auth/{provider}/callback). */
const knownErrors = ['access_denied', 'invalid_state', 'provider_error', 'account_disabled', 'identity_in_use', 'email_in_use', 'not_signed_in', 'sign_up_closed', 'provider_not_configured'] as const;

/** What to tell a person who landed on /sign-in?error=<code>. */
export function signInErrorMessage(t: TFunction, code: string): string {
  return (knownErrors as readonly string[]).includes(code) ? t(`signIn.errors.${code}`) : t('signIn.errors.unknown', { code });
}
