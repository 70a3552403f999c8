// A loopback GitHub for OAuth sign-in tests: the authorize page (auto-approving), the code exchange with PKCE checked
// and errors as HTTP 200 bodies the way GitHub answers them, and the REST API's /user, /user/emails and /user/orgs
// (private memberships only with the read:org scope, as GitHub lists them).
import { createHash, randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';

/** A seeded GitHub account. */
export interface GithubFakeUser {
  id: number;
  login: string;
  name: string | null;
  /** the public email on /user; often null on real accounts */
  email: string | null;
  emails: { email: string; primary: boolean; verified: boolean; visibility: 'public' | 'private' | null }[];
  /** organisation memberships by organisation login; a private one is listed only to a token with read:org */
  organizations: { login: string; membership: 'public' | 'private' }[];
}

/** Failure switches a test flips. */
export interface GithubFakeSwitches {
  /** the authorize page answers `error=access_denied`, as when the user clicks Cancel */
  accessDenied: boolean;
  /** the code exchange answers `{"error": "bad_verification_code"}` with HTTP 200 */
  badCode: boolean;
}

/** The running fake. */
export interface GithubFake {
  /** `http://127.0.0.1:PORT`: both GATEWAY_GITHUB_BASE_URL and GATEWAY_GITHUB_API_URL */
  url: string;
  clientId: string;
  clientSecret: string;
  switches: GithubFakeSwitches;
  /** who the next authorize request signs in as */
  signInAs(user: GithubFakeUser): void;
  /** the code exchanges it refused, with the reason, newest last */
  refusals: string[];
  close(): Promise<void>;
}

interface IssuedCode {
  user: GithubFakeUser;
  /** the scopes the authorize request asked for */
  scopes: string[];
  redirectUri: string;
  codeChallenge: string;
  used: boolean;
}

/** Starts the fake on 127.0.0.1 and a free port; `redirectUri` is the only callback it accepts. */
export async function startGithubFake(options: { redirectUri: () => string }): Promise<GithubFake> {
  const clientId = 'Iv1.fakeclient';
  const clientSecret = 'fake-github-secret';
  const switches: GithubFakeSwitches = { accessDenied: false, badCode: false };
  const codes = new Map<string, IssuedCode>();
  const tokens = new Map<string, { user: GithubFakeUser; scopes: string[] }>();
  const refusals: string[] = [];
  let nextUser: GithubFakeUser | undefined;

  const app: FastifyInstance = Fastify();
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  app.get<{ Querystring: Record<string, string> }>('/login/oauth/authorize', async (request, reply) => {
    const query = request.query;
    if (query.client_id !== clientId || query.redirect_uri !== options.redirectUri())
      return reply.code(400).send('The redirect_uri is not associated with this application.');
    if (query.code_challenge_method !== 'S256' || !query.code_challenge || !query.state)
      return reply.code(400).send('PKCE S256 and state expected by this fake');
    const callback = new URL(query.redirect_uri);
    if (switches.accessDenied) {
      callback.search = new URLSearchParams({
        error: 'access_denied',
        error_description: 'The user has denied your application access.',
        state: query.state,
      }).toString();
      return reply.redirect(callback.toString(), 302);
    }
    if (nextUser === undefined) return reply.code(500).send('the test did not say who signs in');
    const code = randomBytes(10).toString('hex');
    codes.set(code, {
      user: nextUser,
      scopes: (query.scope ?? '').split(/[ ,]+/).filter(Boolean),
      redirectUri: query.redirect_uri,
      codeChallenge: query.code_challenge,
      used: false,
    });
    callback.search = new URLSearchParams({ code, state: query.state }).toString();
    return reply.redirect(callback.toString(), 302);
  });

  app.post<{ Body: Record<string, string> }>('/login/oauth/access_token', async (request) => {
    const body = request.body ?? {};
    const refuse = (error: string) => {
      refusals.push(error);
      // GitHub answers these with HTTP 200.
      return { error, error_description: error.replaceAll('_', ' '), error_uri: 'https://docs.github.com/apps' };
    };
    if (body.client_id !== clientId || body.client_secret !== clientSecret)
      return refuse('incorrect_client_credentials');
    const issued = codes.get(body.code ?? '');
    if (switches.badCode || issued === undefined || issued.used) return refuse('bad_verification_code');
    if (body.redirect_uri !== issued.redirectUri) return refuse('redirect_uri_mismatch');
    const challenge = createHash('sha256')
      .update(body.code_verifier ?? '')
      .digest('base64url');
    if (challenge !== issued.codeChallenge) return refuse('bad_verification_code');
    issued.used = true;
    const token = `gho_${randomBytes(16).toString('hex')}`;
    tokens.set(token, { user: issued.user, scopes: issued.scopes });
    return { access_token: token, token_type: 'bearer', scope: issued.scopes.join(',') };
  });

  const grantOf = (authorization: string | undefined) => tokens.get(authorization?.replace(/^Bearer /, '') ?? '');
  const userOf = (authorization: string | undefined) => grantOf(authorization)?.user;
  app.get('/user', async (request, reply) => {
    const user = userOf(request.headers.authorization);
    if (!user) return reply.code(401).send({ message: 'Bad credentials' });
    return {
      id: user.id,
      login: user.login,
      name: user.name,
      email: user.email,
      avatar_url: `https://avatars.example/${user.id}`,
    };
  });
  app.get('/user/emails', async (request, reply) => {
    const user = userOf(request.headers.authorization);
    if (!user) return reply.code(401).send({ message: 'Bad credentials' });
    return user.emails;
  });
  app.get('/user/orgs', async (request, reply) => {
    const grant = grantOf(request.headers.authorization);
    if (!grant) return reply.code(401).send({ message: 'Bad credentials' });
    const readsPrivate = grant.scopes.includes('read:org');
    return grant.user.organizations
      .filter((organization) => readsPrivate || organization.membership === 'public')
      .map((organization, index) => ({ login: organization.login, id: 9_000 + index, description: null }));
  });

  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url: address,
    clientId,
    clientSecret,
    switches,
    refusals,
    signInAs(user) {
      nextUser = user;
    },
    close: () => app.close(),
  };
}

let githubIds = 4_000_000;

/** A GitHub account with one primary email, verified unless told. */
export function createGithubUser(
  email: string,
  options: {
    verified?: boolean;
    publicEmail?: boolean;
    organizations?: GithubFakeUser['organizations'];
  } = {},
): GithubFakeUser {
  githubIds += 1;
  return {
    id: githubIds,
    login: `octo${githubIds}`,
    name: `Octo ${githubIds}`,
    email: options.publicEmail === false ? null : email,
    emails: [{ email, primary: true, verified: options.verified ?? true, visibility: 'private' }],
    organizations: options.organizations ?? [],
  };
}
