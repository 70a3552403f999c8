import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { beginOauthAttempt, oauthCallbackUrl } from '../../accounts/begin-oauth-attempt.js';
import { hashConsoleToken } from '../../accounts/console-token.js';
import { fetchGithubProfile } from '../../accounts/github-sign-in.js';
import { readsGithubOrganizations } from '../../accounts/sign-up-policy.js';
import {
  oauthTransactionCookieName,
  parseOauthTransaction,
  type OauthTransaction,
} from '../../accounts/oauth-transaction.js';
import type { ProviderProfile } from '../../accounts/provider-profile.js';
import { resolveSignInUser } from '../../accounts/resolve-sign-in-user.js';
import { safeReturnPath } from '../../accounts/safe-return-path.js';
import { SignInError } from '../../accounts/sign-in-error.js';
import { providerEmailTrust } from '../../accounts/trusted-provider-email.js';
import { signInToConsole } from '../api/start-console-session.js';
import { beginSecondFactor, needsSecondFactor } from '../api/second-factor-challenge.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { IdentityProvider } from '../../storage/sign-in-records.js';
import type { UserRecord } from '../../storage/store-records.js';
import { encodeOauthTransactionCookie, publicOriginOf, sessionCookieName } from '../api/console-cookies.js';
import { parseApiInput } from '../api/parse-api-input.js';
import { readRequestCookie } from '../api/read-request-cookie.js';
import type { ApiRouteContext } from './api-routes.js';

const providerParamsSchema = z.object({ provider: z.enum(['github', 'oidc']) });
const startQuerySchema = z.object({ returnTo: z.string().max(2_048).optional() });
const callbackQuerySchema = z.object({
  code: z.string().max(2_048).optional(),
  state: z.string().max(512).optional(),
  error: z.string().max(200).optional(),
});

/**
 * Social sign-in, public: GET /api/auth/providers, GET /api/auth/{github,oidc}/start (302 to the provider, the attempt
 * in a short-lived cookie) and GET /api/auth/{github,oidc}/callback (verifies, signs in or links, sets the session
 * cookie, 302 to the return path; on failure 302 to `/sign-in?error=<code>`). A link attempt starts at
 * POST /api/me/identities/link and completes here only in the browser session that started it.
 */
export function registerApiSignInRoutes(app: FastifyInstance, { services, api }: ApiRouteContext): void {
  const { signIn } = api;

  app.get('/auth/providers', async () => ({
    providers: [
      ...(signIn.config.github ? [{ id: 'github', name: 'GitHub', startUrl: '/api/auth/github/start' }] : []),
      ...(signIn.config.oidc
        ? [{ id: 'oidc', name: signIn.config.oidc.displayName, startUrl: '/api/auth/oidc/start' }]
        : []),
    ],
    // Email and password stays for accounts that have a password (bootstrap admins).
    password: true,
  }));

  // Always a sign-in, even from a signed-in browser: linking starts only by the CSRF-checked POST
  // /api/me/identities/link, so a cross-site link to this URL cannot attach an identity to someone's account.
  app.get('/auth/:provider/start', async (request, reply) => {
    const { provider } = parseProvider(request.params);
    const { returnTo } = parseApiInput(startQuerySchema, request.query);
    const publicOrigin = publicOriginOf(request, api);
    try {
      const attempt = await beginOauthAttempt(signIn, {
        provider,
        publicOrigin,
        returnTo,
        linkSessionId: null,
        signUp: services.config.signUp,
        now: services.clock(),
      });
      void reply.header('set-cookie', encodeOauthTransactionCookie(attempt.transactionCookie, publicOrigin));
      return reply.redirect(attempt.location, 302);
    } catch (error) {
      return redirectToSignInPage(request, reply, error);
    }
  });

  app.get('/auth/:provider/callback', async (request, reply) => {
    const { provider } = parseProvider(request.params);
    const publicOrigin = publicOriginOf(request, api);
    // The attempt is used once, whatever happens next.
    void reply.header('set-cookie', encodeOauthTransactionCookie('', publicOrigin));
    try {
      const query = callbackQuerySchema.safeParse(request.query);
      const transaction = parseOauthTransaction(
        readRequestCookie(request, oauthTransactionCookieName),
        services.clock(),
      );
      if (
        !query.success ||
        transaction === undefined ||
        transaction.provider !== provider ||
        query.data.state !== transaction.state
      ) {
        throw new SignInError(
          'invalid_state',
          'no sign-in attempt matches this callback (expired, replayed or forged)',
        );
      }
      if (query.data.error !== undefined) {
        throw new SignInError(
          query.data.error === 'access_denied' ? 'access_denied' : 'provider_error',
          `the provider answered error=${query.data.error}`,
        );
      }
      // The session is checked before the code is redeemed, so another browser's callback gets nothing.
      const linkingUser = transaction.intent === 'link' ? await findLinkingUser(request, transaction) : undefined;
      const profile = await fetchProfile(provider, transaction, new URL(request.url, publicOrigin), query.data.code);
      const resolved = await resolveSignInUser(
        {
          gatewayStore: api.gatewayStore,
          signInStore: signIn.store,
          findUserById: (userId) => api.billing.store.findUserById(userId),
        },
        profile,
        {
          linkingUser,
          emailTrust: providerEmailTrust(provider, signIn.config),
          config: services.config,
          now: services.clock(),
        },
      );
      request.log.info({ userId: resolved.user.id, provider, outcome: resolved.outcome }, 'social sign-in');
      if (linkingUser === undefined && (await needsSecondFactor(api, resolved.user.id))) {
        // No session until the code: the sign-in page asks for it and POST /api/auth/two-factor finishes.
        const returnPath = safeReturnPath(transaction.returnPath);
        await beginSecondFactor(request, reply, api, { userId: resolved.user.id, returnPath, now: services.clock() });
        return reply.redirect('/sign-in?second_factor=1', 302);
      }
      if (linkingUser === undefined) {
        await signInToConsole(request, reply, api, { userId: resolved.user.id, now: services.clock() });
      }
      // Checked again: the attempt cookie came back from the browser.
      return reply.redirect(safeReturnPath(transaction.returnPath), 302);
    } catch (error) {
      return redirectToSignInPage(request, reply, error);
    }
  });

  /** The user whose session started this link attempt, when this browser still holds that very session. */
  async function findLinkingUser(request: FastifyRequest, transaction: OauthTransaction): Promise<UserRecord> {
    const token = readRequestCookie(request, sessionCookieName);
    const found = token ? await signIn.store.findSession(hashConsoleToken(token), services.clock()) : undefined;
    if (found === undefined || found.user.status !== 'active')
      throw new SignInError('not_signed_in', 'the session that started linking has ended');
    if (found.session.id !== transaction.linkSessionId)
      throw new SignInError('not_signed_in', 'the link was started by another session than this browser holds');
    return found.user;
  }

  function fetchProfile(
    provider: IdentityProvider,
    transaction: OauthTransaction,
    callbackUrl: URL,
    code: string | undefined,
  ): Promise<ProviderProfile> {
    const redirectUri = oauthCallbackUrl(callbackUrl.origin, provider);
    switch (provider) {
      case 'github': {
        const github = signIn.config.github;
        if (github === undefined) throw new SignInError('provider_not_configured', 'GitHub sign-in is not configured');
        if (code === undefined) throw new SignInError('provider_error', 'the callback carries no code');
        return fetchGithubProfile(github, {
          code,
          redirectUri,
          codeVerifier: transaction.codeVerifier,
          readOrganizations: readsGithubOrganizations(services.config.signUp, transaction.linkSessionId),
        });
      }
      case 'oidc': {
        if (signIn.oidc === undefined)
          throw new SignInError('provider_not_configured', 'OpenID Connect sign-in is not configured');
        return signIn.oidc.fetchProfile({
          callbackUrl,
          state: transaction.state,
          nonce: transaction.nonce,
          codeVerifier: transaction.codeVerifier,
        });
      }
      default:
        return assertNever(provider);
    }
  }
}

function parseProvider(params: unknown): { provider: IdentityProvider } {
  const parsed = providerParamsSchema.safeParse(params);
  if (!parsed.success) throw new GatewayError('not_found', 'No such sign-in provider: use github or oidc.');
  return parsed.data;
}

function redirectToSignInPage(request: FastifyRequest, reply: FastifyReply, error: unknown): FastifyReply {
  if (error instanceof SignInError) {
    request.log.warn({ code: error.code, reason: error.message, clientAddress: request.ip }, 'social sign-in refused');
    return reply.redirect(`/sign-in?error=${error.code}`, 302);
  }
  request.log.error({ err: error }, 'social sign-in failed');
  return reply.redirect('/sign-in?error=provider_error', 302);
}

function assertNever(value: never): never {
  throw new Error(`unexpected sign-in provider ${String(value)}`);
}
