/**
 * How far a provider's word on an email is trusted: whether a verified email may link to an existing account and be a
 * new account's address, and (when not empty) the email domains that may (lowercase, e.g. `example.com`).
 */
export interface ProviderEmailTrust {
  trustVerifiedEmail: boolean;
  emailDomains: readonly string[];
}

/** GitHub OAuth App settings; present only when both the client id and secret are configured. */
export interface GithubSignInConfig {
  clientId: string;
  clientSecret: string;
  /** where users authorize and codes are exchanged: `https://github.com`, or a GitHub Enterprise Server origin */
  baseUrl: string;
  /** GitHub's REST API: `https://api.github.com`, or `https://HOST/api/v3` on GitHub Enterprise Server */
  apiUrl: string;
  /** GATEWAY_GITHUB_TRUST_EMAIL / _EMAIL_DOMAINS; unset means the primary verified email is trusted, any domain */
  emailTrust?: ProviderEmailTrust;
}

/** OpenID Connect provider settings; present only when issuer, client id and secret are configured. */
export interface OidcSignInConfig {
  /** the issuer URL; its `/.well-known/openid-configuration` is read at the first sign-in */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** shown on the sign-in page, e.g. `Google` or `Company SSO` */
  displayName: string;
  /** GATEWAY_OIDC_TRUST_EMAIL / _EMAIL_DOMAINS; unset means `email_verified` is not trusted */
  emailTrust?: ProviderEmailTrust;
}

/** Sign-in settings: the gateway's public origin and the configured providers. */
export interface SignInConfig {
  /** the gateway's public origin, e.g. `https://gateway.example.com`; undefined means `http://127.0.0.1:<listening port>` */
  publicUrl: string | undefined;
  github: GithubSignInConfig | undefined;
  oidc: OidcSignInConfig | undefined;
  /** GATEWAY_REQUIRE_ADMIN_TWO_FACTOR: an admin without two-factor sign-in must set it up before anything else */
  requireAdminTwoFactor?: boolean;
}

/** Reads GATEWAY_PUBLIC_URL, GATEWAY_GITHUB_* and GATEWAY_OIDC_* (docs/CONFIGURATION.md). */
export function loadSignInConfig(environment: NodeJS.ProcessEnv): SignInConfig {
  const publicUrl = environment.GATEWAY_PUBLIC_URL || undefined;
  if (publicUrl !== undefined) requireOrigin('GATEWAY_PUBLIC_URL', publicUrl);
  const githubClientId = environment.GATEWAY_GITHUB_CLIENT_ID || undefined;
  const githubClientSecret = environment.GATEWAY_GITHUB_CLIENT_SECRET || undefined;
  const oidcIssuer = environment.GATEWAY_OIDC_ISSUER || undefined;
  const oidcClientId = environment.GATEWAY_OIDC_CLIENT_ID || undefined;
  const oidcClientSecret = environment.GATEWAY_OIDC_CLIENT_SECRET || undefined;
  return {
    publicUrl: publicUrl?.replace(/\/+$/, ''),
    github:
      githubClientId && githubClientSecret
        ? {
            clientId: githubClientId,
            clientSecret: githubClientSecret,
            baseUrl: trimSlash(environment.GATEWAY_GITHUB_BASE_URL || 'https://github.com'),
            apiUrl: trimSlash(environment.GATEWAY_GITHUB_API_URL || 'https://api.github.com'),
            emailTrust: readEmailTrust(environment, 'GATEWAY_GITHUB', true),
          }
        : undefined,
    oidc:
      oidcIssuer && oidcClientId && oidcClientSecret
        ? {
            issuer: oidcIssuer,
            clientId: oidcClientId,
            clientSecret: oidcClientSecret,
            displayName: environment.GATEWAY_OIDC_NAME || 'OpenID Connect',
            emailTrust: readEmailTrust(environment, 'GATEWAY_OIDC', false),
          }
        : undefined,
    requireAdminTwoFactor: readSwitch(environment, 'GATEWAY_REQUIRE_ADMIN_TWO_FACTOR', false),
  };
}

// An on/off setting (true/false, 1/0 also taken); anything else stops the start.
function readSwitch(environment: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = environment[name]?.trim().toLowerCase() || undefined;
  if (raw === undefined) return fallback;
  if (['on', 'true', '1'].includes(raw)) return true;
  if (['off', 'false', '0'].includes(raw)) return false;
  throw new Error(`${name} must be true or false, got "${environment[name]}"`);
}

// `<prefix>_TRUST_EMAIL` (on/off) and `<prefix>_EMAIL_DOMAINS` (comma-separated, a leading `@` allowed).
function readEmailTrust(environment: NodeJS.ProcessEnv, prefix: string, fallback: boolean): ProviderEmailTrust {
  const switchName = `${prefix}_TRUST_EMAIL`;
  const raw = environment[switchName]?.trim().toLowerCase() || undefined;
  if (raw !== undefined && !['on', 'true', '1', 'off', 'false', '0'].includes(raw))
    throw new Error(`${switchName} must be on or off, got "${environment[switchName]}"`);
  const emailDomains = (environment[`${prefix}_EMAIL_DOMAINS`] ?? '')
    .split(',')
    .map((domain) => domain.trim().toLowerCase().replace(/^@/, ''))
    .filter((domain) => domain.length > 0);
  return { trustVerifiedEmail: raw === undefined ? fallback : ['on', 'true', '1'].includes(raw), emailDomains };
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

function requireOrigin(name: string, value: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${name} must be an http(s) URL such as https://gateway.example.com, got "${value}"`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new Error(`${name} must be an http(s) URL, got "${value}"`);
  if (url.pathname !== '/' || url.search !== '')
    throw new Error(`${name} must be an origin without a path, got "${value}"`);
}
