/**
 * Who may make themself an account by signing in with a provider for the first time: anyone (`open`), only people
 * whose verified email is at one of `emailDomains` (`allowlist`), or nobody (`off`: accounts come from the operator).
 */
export type SignUpPolicy = { mode: 'open' } | { mode: 'off' } | { mode: 'allowlist'; emailDomains: string[] };

/** Sign-up as it has always been: anyone who completes a provider's sign-in gets an account. */
export const defaultSignUpPolicy: SignUpPolicy = { mode: 'open' };

/**
 * Reads GATEWAY_SIGNUP (`open`, default; `allowlist`; `off`) and GATEWAY_SIGNUP_EMAIL_DOMAINS (comma list, needed
 * with `allowlist`). GATEWAY_SIGNUP_GITHUB_ORGS stops the start: organisation membership is not checked yet, and a
 * setting that looks like a restriction but restricts nothing must not be accepted.
 */
export function readSignUpPolicy(environment: NodeJS.ProcessEnv): SignUpPolicy {
  if (environment.GATEWAY_SIGNUP_GITHUB_ORGS?.trim())
    throw new Error(
      'GATEWAY_SIGNUP_GITHUB_ORGS is not implemented yet: GitHub organisation membership is not checked. Unset it and use GATEWAY_SIGNUP=allowlist with GATEWAY_SIGNUP_EMAIL_DOMAINS, or GATEWAY_SIGNUP=off',
    );
  const mode = (environment.GATEWAY_SIGNUP?.trim() || 'open').toLowerCase();
  const emailDomains = (environment.GATEWAY_SIGNUP_EMAIL_DOMAINS ?? '')
    .split(',')
    .map((domain) => domain.trim().toLowerCase().replace(/^@/, ''))
    .filter(Boolean);
  if (mode === 'open' || mode === 'off') {
    if (emailDomains.length > 0)
      throw new Error(`GATEWAY_SIGNUP_EMAIL_DOMAINS is only read with GATEWAY_SIGNUP=allowlist (it is "${mode}")`);
    return { mode };
  }
  if (mode !== 'allowlist') throw new Error(`GATEWAY_SIGNUP must be open, allowlist or off, got "${mode}"`);
  if (emailDomains.length === 0)
    throw new Error('GATEWAY_SIGNUP=allowlist needs GATEWAY_SIGNUP_EMAIL_DOMAINS (e.g. example.com,example.org)');
  for (const domain of emailDomains)
    if (!/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(domain))
      throw new Error(`GATEWAY_SIGNUP_EMAIL_DOMAINS: "${domain}" is not a domain such as example.com`);
  return { mode: 'allowlist', emailDomains };
}
