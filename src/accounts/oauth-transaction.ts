import { z } from 'zod';
import type { IdentityProvider } from '../storage/sign-in-records.js';
import { loadOpenidClient } from './load-openid-client.js';

/** Name of the short-lived cookie (Path=/api/auth) that carries one sign-in attempt from its start to its callback. */
export const oauthTransactionCookieName = 'gateway_oauth';
/** How long a sign-in attempt may take at the provider, in seconds. */
export const oauthTransactionLifetimeSeconds = 600;

/** One sign-in attempt between `/start` and `/callback`. */
export interface OauthTransaction {
  provider: IdentityProvider;
  /** the `state` sent to the provider; the callback must bring it back */
  state: string;
  /** the PKCE code verifier; only its S256 challenge went to the provider */
  codeVerifier: string;
  /** the OIDC nonce the ID token must carry (empty for GitHub) */
  nonce: string;
  /** local path to go to afterwards */
  returnPath: string;
  /** `link`: add the identity to the signed-in user (checked again at the callback); `sign-in` otherwise */
  intent: 'sign-in' | 'link';
  /** for `link`, the id (`ses_...`) of the console session that started it: the callback needs that same session */
  linkSessionId: string | null;
  /** Unix milliseconds after which the callback refuses it */
  expiresAt: number;
}

const transactionSchema = z.object({
  provider: z.enum(['github', 'oidc']),
  state: z.string().min(16).max(200),
  codeVerifier: z.string().min(43).max(128),
  nonce: z.string().max(200),
  returnPath: z.string().max(2_048),
  intent: z.enum(['sign-in', 'link']),
  linkSessionId: z.string().min(1).max(100).nullable(),
  expiresAt: z.number().int(),
});

/** The cookie value of a transaction (base64url JSON: it holds nothing an attacker could use on another browser). */
export function encodeOauthTransaction(transaction: OauthTransaction): string {
  return Buffer.from(JSON.stringify(transaction)).toString('base64url');
}

/** The transaction in a cookie value, or undefined when it is missing, malformed or expired. */
export function parseOauthTransaction(cookieValue: string | undefined, now: number): OauthTransaction | undefined {
  if (cookieValue === undefined || cookieValue.length > 4_096) return undefined;
  try {
    const parsed = transactionSchema.safeParse(JSON.parse(Buffer.from(cookieValue, 'base64url').toString('utf8')));
    if (!parsed.success || parsed.data.expiresAt <= now) return undefined;
    return parsed.data;
  } catch {
    return undefined;
  }
}

/**
 * A new attempt with a random state, PKCE verifier (and its S256 challenge) and, for OIDC, nonce; with `linkSessionId`
 * it links the identity to that session's user.
 */
export async function createOauthTransaction(options: {
  provider: IdentityProvider;
  returnPath: string;
  linkSessionId: string | null;
  now: number;
}): Promise<{ transaction: OauthTransaction; codeChallenge: string }> {
  const openid = await loadOpenidClient();
  const transaction: OauthTransaction = {
    provider: options.provider,
    state: openid.randomState(),
    codeVerifier: openid.randomPKCECodeVerifier(),
    nonce: options.provider === 'oidc' ? openid.randomNonce() : '',
    returnPath: options.returnPath,
    intent: options.linkSessionId === null ? 'sign-in' : 'link',
    linkSessionId: options.linkSessionId,
    expiresAt: options.now + oauthTransactionLifetimeSeconds * 1_000,
  };
  return { transaction, codeChallenge: await openid.calculatePKCECodeChallenge(transaction.codeVerifier) };
}
