/**
 * Who may make themself an account by signing in with a provider for the first time: anyone (`open`), only people
 * whose verified email is at one of `emailDomains` or who are members of one of `githubOrganizations` (GitHub
 * organisation logins, lowercase) (`allowlist`), or nobody (`off`: accounts come from the operator).
 */
export type SignUpPolicy =
  { mode: 'open' } | { mode: 'off' } | { mode: 'allowlist'; emailDomains: string[]; githubOrganizations: string[] };

/** Sign-up as it has always been: anyone who completes a provider's sign-in gets an account. */
export const defaultSignUpPolicy: SignUpPolicy = { mode: 'open' };

/** A GitHub organisation login: letters, digits and single hyphens, at most 39 characters. */
const githubLoginPattern = /^[a-z0-9](?:-?[a-z0-9]){0,38}$/;

/**
 * Reads GATEWAY_SIGNUP (`open`, default; `allowlist`; `off`), GATEWAY_SIGNUP_EMAIL_DOMAINS and
 * GATEWAY_SIGNUP_GITHUB_ORGS (comma lists; `allowlist` needs at least one of them, the other modes neither).
 */
export function readSignUpPolicy(environment: NodeJS.ProcessEnv): SignUpPolicy {
  const mode = (environment.GATEWAY_SIGNUP?.trim() || 'open').toLowerCase();
  const emailDomains = readLowercaseList(environment.GATEWAY_SIGNUP_EMAIL_DOMAINS).map((domain) =>
    domain.replace(/^@/, ''),
  );
  const githubOrganizations = readLowercaseList(environment.GATEWAY_SIGNUP_GITHUB_ORGS);
  if (mode === 'open' || mode === 'off') {
    if (emailDomains.length > 0)
      throw new Error(`GATEWAY_SIGNUP_EMAIL_DOMAINS is only read with GATEWAY_SIGNUP=allowlist (it is "${mode}")`);
    if (githubOrganizations.length > 0)
      throw new Error(`GATEWAY_SIGNUP_GITHUB_ORGS is only read with GATEWAY_SIGNUP=allowlist (it is "${mode}")`);
    return { mode };
  }
  if (mode !== 'allowlist') throw new Error(`GATEWAY_SIGNUP must be open, allowlist or off, got "${mode}"`);
  if (emailDomains.length === 0 && githubOrganizations.length === 0)
    throw new Error(
      'GATEWAY_SIGNUP=allowlist needs GATEWAY_SIGNUP_EMAIL_DOMAINS (e.g. example.com,example.org) or GATEWAY_SIGNUP_GITHUB_ORGS (e.g. acme,acme-labs)',
    );
  for (const domain of emailDomains)
    if (!/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(domain))
      throw new Error(`GATEWAY_SIGNUP_EMAIL_DOMAINS: "${domain}" is not a domain such as example.com`);
  for (const organization of githubOrganizations)
    if (!githubLoginPattern.test(organization))
      throw new Error(`GATEWAY_SIGNUP_GITHUB_ORGS: "${organization}" is not a GitHub organisation login such as acme`);
  return { mode: 'allowlist', emailDomains, githubOrganizations };
}

function readLowercaseList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim().toLowerCase())
    .filter(Boolean);
}
