// GATEWAY_SIGNUP end to end through the GitHub fake: who a first social sign-in may make an account for.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignUpPolicy } from '../../src/config/sign-up-config.js';
import {
  createGithubUser,
  startGithubFake,
  type GithubFake,
  type GithubFakeUser,
} from '../doubles/github/start-github-fake.js';
import { CookieBrowser } from '../helpers/cookie-browser.js';
import { startTestGateway, uniqueName, type TestGateway } from '../helpers/start-test-gateway.js';

let github: GithubFake;
/** The gateway the GitHub fake sends its callbacks to. */
let active: TestGateway | undefined;

beforeAll(async () => {
  github = await startGithubFake({ redirectUri: () => `${active?.url ?? ''}/api/auth/github/callback` });
});

afterAll(async () => {
  await github?.close();
});

async function startGateway(signUp: SignUpPolicy): Promise<TestGateway> {
  return startTestGateway({
    config: {
      signIn: {
        publicUrl: undefined,
        oidc: undefined,
        github: {
          clientId: github.clientId,
          clientSecret: github.clientSecret,
          baseUrl: github.url,
          apiUrl: github.url,
        },
      },
      signUp,
    },
  });
}

/** Signs in through the GitHub fake as `user`; the path the gateway finally redirects to. */
async function signInWithGithub(gateway: TestGateway, user: GithubFakeUser): Promise<string> {
  active = gateway;
  github.signInAs(user);
  const hops = await new CookieBrowser().follow(`${gateway.url}/api/auth/github/start?returnTo=/console/keys`, {
    until: (response) => response.url.startsWith(`${gateway.url}/api/auth/github/callback`),
  });
  const location = new URL(hops.at(-1)!.location!);
  return location.pathname + location.search;
}

describe('GATEWAY_SIGNUP=off', () => {
  let gateway: TestGateway;

  beforeAll(async () => {
    gateway = await startGateway({ mode: 'off' });
  });

  afterAll(async () => {
    await gateway?.close();
  });

  it('makes no account for a new identity, and sends it to the sign-in page with sign_up_closed', async () => {
    const email = `${uniqueName('stranger')}@example.test`;
    expect(await signInWithGithub(gateway, createGithubUser(email))).toBe('/sign-in?error=sign_up_closed');
    expect(await gateway.store.findUserByEmail(email)).toBeUndefined();
  });

  it('still lets a provider into an account that exists (linked by its verified email)', async () => {
    const user = await gateway.createUser();
    expect(await signInWithGithub(gateway, createGithubUser(user.email))).toBe('/console/keys');
  });
});

describe('GATEWAY_SIGNUP=allowlist', () => {
  let gateway: TestGateway;

  beforeAll(async () => {
    gateway = await startGateway({ mode: 'allowlist', emailDomains: ['corp.example'], githubOrganizations: [] });
  });

  afterAll(async () => {
    await gateway?.close();
  });

  it('makes an account for a verified email at a listed domain', async () => {
    const email = `${uniqueName('colleague')}@corp.example`;
    expect(await signInWithGithub(gateway, createGithubUser(email))).toBe('/console/keys');
    expect((await gateway.store.findUserByEmail(email))?.role).toBe('user');
  });

  it('refuses other domains, look-alike domains and unverified emails', async () => {
    for (const [email, verified] of [
      [`${uniqueName('outsider')}@elsewhere.example`, true],
      [`${uniqueName('lookalike')}@corp.example.evil.test`, true],
      [`${uniqueName('unverified')}@corp.example`, false],
    ] as const) {
      expect(await signInWithGithub(gateway, createGithubUser(email, { verified })), email).toBe(
        '/sign-in?error=sign_up_closed',
      );
      expect(await gateway.store.findUserByEmail(email)).toBeUndefined();
    }
  });
});

describe('GATEWAY_SIGNUP=allowlist with GATEWAY_SIGNUP_GITHUB_ORGS', () => {
  let gateway: TestGateway;

  beforeAll(async () => {
    gateway = await startGateway({ mode: 'allowlist', emailDomains: [], githubOrganizations: ['acme'] });
  });

  afterAll(async () => {
    await gateway?.close();
  });

  it('makes an account for a member of a listed organisation, private memberships included (read:org asked)', async () => {
    const email = `${uniqueName('member')}@anywhere.example`;
    const member = createGithubUser(email, { organizations: [{ login: 'Acme', membership: 'private' }] });
    expect(await signInWithGithub(gateway, member)).toBe('/console/keys');
    expect((await gateway.store.findUserByEmail(email))?.role).toBe('user');
  });

  it('refuses people outside the organisations, members of look-alike ones included', async () => {
    for (const organizations of [[], [{ login: 'acme-labs', membership: 'public' as const }]]) {
      const email = `${uniqueName('outsider')}@anywhere.example`;
      expect(await signInWithGithub(gateway, createGithubUser(email, { organizations }))).toBe(
        '/sign-in?error=sign_up_closed',
      );
      expect(await gateway.store.findUserByEmail(email)).toBeUndefined();
    }
  });
});
