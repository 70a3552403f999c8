import type { FastifyRequest } from 'fastify';
import { adminTokenPrefix, hashConsoleToken } from '../../accounts/console-token.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { AdminTokenRecord } from '../../storage/sign-in-records.js';
import type { UserRecord } from '../../storage/store-records.js';
import type { ApiServices } from '../gateway-services.js';
import { publicOriginOf, sessionCookieName } from './console-cookies.js';
import { readRequestCookie } from './read-request-cookie.js';
import { refuseCrossSiteRequest } from './refuse-cross-site-request.js';

export { sessionCookieName } from './console-cookies.js';

/** Who is calling the /api: a signed-in user (maybe an admin), or an admin token with no user. */
export interface ApiCaller {
  /** the signed-in user, or undefined for an admin token */
  user: UserRecord | undefined;
  /** true for admin users and admin tokens */
  isAdmin: boolean;
  /** SHA-256 of the session token, so logout can end it */
  sessionTokenHash: string | undefined;
  /** id of the caller's console session (`ses_...`), so the session list can mark it; undefined for admin tokens */
  sessionId?: string | undefined;
  /** the admin token the caller presented (its id and name name the actor in the audit log); undefined otherwise */
  adminToken?: Pick<AdminTokenRecord, 'id' | 'name'> | undefined;
}

/**
 * Resolves `Authorization: Bearer <session or admin token>` or the session cookie, or throws 401 `unauthorized`.
 * A state-changing call authenticated by the cookie must come from the gateway's own origin (403 otherwise), whatever
 * token the cookie holds: an admin token in the cookie is checked like a session, only the bearer header skips it.
 */
export async function authenticateApiCaller(
  request: FastifyRequest,
  services: ApiServices,
  now: number,
): Promise<ApiCaller> {
  const bearerToken = readBearerToken(request);
  const cookieToken =
    bearerToken === undefined ? readRequestCookie(request, sessionCookieName) || undefined : undefined;
  const token = bearerToken ?? cookieToken;
  if (!token)
    throw new GatewayError(
      'unauthorized',
      'Sign in first: send a session token (POST /api/auth/login) or an admin token as Authorization: Bearer <token>.',
    );
  const tokenHash = hashConsoleToken(token);
  if (token.startsWith(adminTokenPrefix)) {
    const adminToken = await services.signIn.store.findAdminToken(tokenHash, now);
    if (!adminToken)
      throw new GatewayError('unauthorized', 'The admin token is not valid, was revoked or has expired.');
    if (cookieToken !== undefined) refuseCrossSiteRequest(request, publicOriginOf(request, services));
    return {
      user: undefined,
      isAdmin: true,
      sessionTokenHash: undefined,
      sessionId: undefined,
      adminToken: { id: adminToken.id, name: adminToken.name },
    };
  }
  const found = await services.signIn.store.findSession(tokenHash, now);
  if (!found || found.user.status !== 'active')
    throw new GatewayError('unauthorized', 'The session is not valid or has expired; sign in again.');
  if (cookieToken !== undefined) refuseCrossSiteRequest(request, publicOriginOf(request, services));
  return {
    user: found.user,
    isAdmin: found.user.role === 'admin',
    sessionTokenHash: tokenHash,
    sessionId: found.session.id,
  };
}

/** Throws 403 `forbidden` unless the caller is an admin. */
export function requireAdmin(caller: ApiCaller): void {
  if (!caller.isAdmin) throw new GatewayError('forbidden', 'Only administrators may do this.');
}

/** The signed-in user, or 400 for admin tokens on routes about "my" account. */
export function requireUser(caller: ApiCaller): UserRecord {
  if (!caller.user)
    throw new GatewayError(
      'invalid_request_error',
      'An admin token has no account of its own; pass a user id where the route accepts one.',
    );
  return caller.user;
}

function readBearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  return header?.startsWith('Bearer ') ? header.slice(7).trim() || undefined : undefined;
}
