import { describe, expect, it } from 'vitest';
import { loadSignInConfig } from './sign-in-config.js';

describe('loadSignInConfig', () => {
  it('configures nothing by default', () => {
    expect(loadSignInConfig({})).toEqual({
      publicUrl: undefined,
      github: undefined,
      oidc: undefined,
      requireAdminTwoFactor: false,
    });
    expect(loadSignInConfig({ GATEWAY_REQUIRE_ADMIN_TWO_FACTOR: 'true' }).requireAdminTwoFactor).toBe(true);
  });

  it('configures GitHub with its public endpoints unless overridden, and OIDC with a display name', () => {
    const config = loadSignInConfig({
      GATEWAY_PUBLIC_URL: 'https://gateway.example/',
      GATEWAY_GITHUB_CLIENT_ID: 'id',
      GATEWAY_GITHUB_CLIENT_SECRET: 'secret',
      GATEWAY_OIDC_ISSUER: 'https://id.example',
      GATEWAY_OIDC_CLIENT_ID: 'oidc-id',
      GATEWAY_OIDC_CLIENT_SECRET: 'oidc-secret',
      GATEWAY_OIDC_NAME: 'Company SSO',
    });
    expect(config).toEqual({
      publicUrl: 'https://gateway.example',
      github: {
        clientId: 'id',
        clientSecret: 'secret',
        baseUrl: 'https://github.com',
        apiUrl: 'https://api.github.com',
        emailTrust: { trustVerifiedEmail: true, emailDomains: [] },
      },
      oidc: {
        issuer: 'https://id.example',
        clientId: 'oidc-id',
        clientSecret: 'oidc-secret',
        displayName: 'Company SSO',
        emailTrust: { trustVerifiedEmail: false, emailDomains: [] },
      },
      requireAdminTwoFactor: false,
    });
    expect(
      loadSignInConfig({
        GATEWAY_GITHUB_CLIENT_ID: 'id',
        GATEWAY_GITHUB_CLIENT_SECRET: 's',
        GATEWAY_GITHUB_BASE_URL: 'https://ghe.example/',
        GATEWAY_GITHUB_API_URL: 'https://ghe.example/api/v3',
      }).github,
    ).toMatchObject({
      baseUrl: 'https://ghe.example',
      apiUrl: 'https://ghe.example/api/v3',
    });
  });

  it("trusts a provider's verified email as configured per provider, with an optional domain allow-list", () => {
    const both = {
      GATEWAY_GITHUB_CLIENT_ID: 'id',
      GATEWAY_GITHUB_CLIENT_SECRET: 's',
      GATEWAY_OIDC_ISSUER: 'https://id.example',
      GATEWAY_OIDC_CLIENT_ID: 'oidc-id',
      GATEWAY_OIDC_CLIENT_SECRET: 'oidc-secret',
    };
    const config = loadSignInConfig({
      ...both,
      GATEWAY_GITHUB_TRUST_EMAIL: 'off',
      GATEWAY_OIDC_TRUST_EMAIL: 'on',
      GATEWAY_OIDC_EMAIL_DOMAINS: ' Example.COM, @corp.example ,',
    });
    expect(config.github?.emailTrust).toEqual({ trustVerifiedEmail: false, emailDomains: [] });
    expect(config.oidc?.emailTrust).toEqual({
      trustVerifiedEmail: true,
      emailDomains: ['example.com', 'corp.example'],
    });
    expect(() => loadSignInConfig({ ...both, GATEWAY_OIDC_TRUST_EMAIL: 'yes please' })).toThrow(
      /GATEWAY_OIDC_TRUST_EMAIL/,
    );
  });

  it('refuses a public URL with a path, and leaves a provider unconfigured without its secret', () => {
    expect(() => loadSignInConfig({ GATEWAY_PUBLIC_URL: 'https://gateway.example/console' })).toThrow(/origin/);
    expect(loadSignInConfig({ GATEWAY_GITHUB_CLIENT_ID: 'id' }).github).toBeUndefined();
  });
});
