/** GitHub OAuth App settings; present only when both the client id and secret are configured. */
export interface GithubSignInConfig {
  clientId: string;
  clientSecret: string;
  /** where users authorize and codes are exchanged: `https://github.com`, or a GitHub Enterprise Server origin */
  baseUrl: string;
  /** GitHub's REST API: `https://api.github.com`, or `https://HOST/api/v3` on GitHub Enterprise Server */
  apiUrl: string;
}

/** OpenID Connect provider settings; present only when issuer, client id and secret are configured. */
export interface OidcSignInConfig {
  /** the issuer URL; its `/.well-known/openid-configuration` is read at the first sign-in */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** shown on the sign-in page, e.g. `Google` or `Company SSO` */
  displayName: string;
}

/** Sign-in settings: the gateway's public origin and the configured providers. */
export interface SignInConfig {
  /** the gateway's public origin, e.g. `https://gateway.example.com`; undefined means `http://127.0.0.1:<listening port>` */
  publicUrl: string | undefined;
  github: GithubSignInConfig | undefined;
  oidc: OidcSignInConfig | undefined;
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
          }
        : undefined,
    oidc:
      oidcIssuer && oidcClientId && oidcClientSecret
        ? {
            issuer: oidcIssuer,
            clientId: oidcClientId,
            clientSecret: oidcClientSecret,
            displayName: environment.GATEWAY_OIDC_NAME || 'OpenID Connect',
          }
        : undefined,
  };
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
