import { request } from 'undici';
import { z } from 'zod';
import type { GithubSignInConfig } from '../config/sign-in-config.js';
import type { ProviderProfile } from './provider-profile.js';
import { SignInError } from './sign-in-error.js';

/** Longest one call to GitHub may take, in milliseconds. */
const githubTimeoutMs = 10_000;

/**
 * GitHub's authorize URL for one attempt: the scopes to read the profile and emails (and organisation memberships,
 * private ones included, when `readOrganizations`), `state` and a PKCE S256 challenge.
 */
export function buildGithubAuthorizationUrl(
  config: GithubSignInConfig,
  attempt: { redirectUri: string; state: string; codeChallenge: string; readOrganizations: boolean },
): string {
  const url = new URL(`${config.baseUrl}/login/oauth/authorize`);
  url.search = new URLSearchParams({
    client_id: config.clientId,
    redirect_uri: attempt.redirectUri,
    scope: attempt.readOrganizations ? 'read:user user:email read:org' : 'read:user user:email',
    state: attempt.state,
    code_challenge: attempt.codeChallenge,
    code_challenge_method: 'S256',
    allow_signup: 'true',
  }).toString();
  return url.toString();
}

// GitHub answers errors with HTTP 200 and `{"error": ...}` in the body, so the body decides, not the status.
const tokenAnswerSchema = z.union([
  z.object({ access_token: z.string().min(1), token_type: z.string().optional() }),
  z.object({ error: z.string(), error_description: z.string().optional() }),
]);
const userSchema = z.object({
  id: z.number().int().positive(),
  login: z.string(),
  name: z.string().nullish(),
  email: z.string().nullish(),
});
const emailsSchema = z.array(z.object({ email: z.string(), primary: z.boolean(), verified: z.boolean() }));
const organizationsSchema = z.array(z.object({ login: z.string() }));
/** GitHub's largest page of /user/orgs; memberships beyond the first 100 are not read. */
const organizationsPerPage = 100;

/**
 * Exchanges the callback's code (with the PKCE verifier) for a token, reads `/user` and `/user/emails` (and
 * `/user/orgs` when `readOrganizations`), and returns the profile: the numeric id as subject (logins can be renamed)
 * and the primary verified email. The GitHub token is dropped afterwards.
 */
export async function fetchGithubProfile(
  config: GithubSignInConfig,
  callback: { code: string; redirectUri: string; codeVerifier: string; readOrganizations: boolean },
): Promise<ProviderProfile> {
  const tokenAnswer = tokenAnswerSchema.safeParse(
    await callGithub(`${config.baseUrl}/login/oauth/access_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        client_id: config.clientId,
        client_secret: config.clientSecret,
        code: callback.code,
        redirect_uri: callback.redirectUri,
        code_verifier: callback.codeVerifier,
      }).toString(),
    }),
  );
  if (!tokenAnswer.success)
    throw new SignInError('provider_error', 'GitHub answered the code exchange with an unexpected body');
  if ('error' in tokenAnswer.data)
    throw new SignInError('provider_error', `GitHub refused the code: ${tokenAnswer.data.error}`);
  const authorization = { authorization: `Bearer ${tokenAnswer.data.access_token}` };
  const user = userSchema.safeParse(
    await callGithub(`${config.apiUrl}/user`, { method: 'GET', headers: authorization }),
  );
  if (!user.success) throw new SignInError('provider_error', 'GitHub /user answered an unexpected body');
  const emails = emailsSchema.safeParse(
    await callGithub(`${config.apiUrl}/user/emails`, { method: 'GET', headers: authorization }),
  );
  if (!emails.success) throw new SignInError('provider_error', 'GitHub /user/emails answered an unexpected body');
  const primaryVerified =
    emails.data.find((email) => email.primary && email.verified) ?? emails.data.find((email) => email.verified);
  const profile: ProviderProfile = {
    provider: 'github',
    subject: String(user.data.id),
    email: primaryVerified?.email ?? user.data.email ?? null,
    emailVerified: primaryVerified !== undefined,
    displayName: user.data.name || user.data.login,
  };
  if (!callback.readOrganizations) return profile;
  const organizations = organizationsSchema.safeParse(
    await callGithub(`${config.apiUrl}/user/orgs?per_page=${organizationsPerPage}`, {
      method: 'GET',
      headers: authorization,
    }),
  );
  if (!organizations.success) throw new SignInError('provider_error', 'GitHub /user/orgs answered an unexpected body');
  return {
    ...profile,
    githubOrganizations: organizations.data.map((organization) => organization.login.toLowerCase()),
  };
}

async function callGithub(
  url: string,
  options: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string },
): Promise<unknown> {
  let response: Awaited<ReturnType<typeof request>>;
  try {
    response = await request(url, {
      method: options.method,
      headers: { accept: 'application/json', 'user-agent': 'model-gateway', ...options.headers },
      body: options.body,
      headersTimeout: githubTimeoutMs,
      bodyTimeout: githubTimeoutMs,
    });
  } catch (error) {
    throw new SignInError('provider_error', `GitHub could not be reached at ${new URL(url).origin}`, { cause: error });
  }
  const text = await response.body.text();
  if (response.statusCode >= 400)
    throw new SignInError('provider_error', `GitHub answered ${response.statusCode} at ${new URL(url).pathname}`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new SignInError('provider_error', `GitHub answered a body that is not JSON at ${new URL(url).pathname}`);
  }
}
