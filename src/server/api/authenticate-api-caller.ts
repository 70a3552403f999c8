import type { FastifyRequest } from 'fastify';
import { adminTokenPrefix, hashConsoleToken } from '../../accounts/console-token.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { UserRecord } from '../../storage/store-records.js';
import type { ApiServices } from '../gateway-services.js';

/** Name of the cookie that carries a console session token. */
export const sessionCookieName = 'gateway_session';

/** Who is calling the /api: a signed-in user (maybe an admin), or an admin token with no user. */
export interface ApiCaller {
  /** the signed-in user, or undefined for an admin token */
  user: UserRecord | undefined;
  /** true for admin users and admin tokens */
  isAdmin: boolean;
  /** SHA-256 of the session token, so logout can end it */
  sessionTokenHash: string | undefined;
}

/** Resolves `Authorization: Bearer <session or admin token>` or the session cookie, or throws 401 `unauthorized`. */
export async function authenticateApiCaller(request: FastifyRequest, services: ApiServices, now: number): Promise<ApiCaller> {
  const token = readBearerToken(request) ?? readSessionCookie(request);
  if (!token) throw new GatewayError('unauthorized', 'Sign in first: send a session token (POST /api/auth/login) or an admin token as Authorization: Bearer <token>.');
  const tokenHash = hashConsoleToken(token);
  if (token.startsWith(adminTokenPrefix)) {
    if (await services.billing.store.hasAdminToken(tokenHash)) return { user: undefined, isAdmin: true, sessionTokenHash: undefined };
    throw new GatewayError('unauthorized', 'The admin token is not valid.');
  }
  const user = await services.billing.store.findSessionUser(tokenHash, now);
  if (!user || user.status !== 'active') throw new GatewayError('unauthorized', 'The session is not valid or has expired; sign in again.');
  return { user, isAdmin: user.role === 'admin', sessionTokenHash: tokenHash };
}

/** Throws 403 `forbidden` unless the caller is an admin. */
export function requireAdmin(caller: ApiCaller): void {
  if (!caller.isAdmin) throw new GatewayError('forbidden', 'Only administrators may do this.');
}

/** The signed-in user, or 400 for admin tokens on routes about "my" account. */
export function requireUser(caller: ApiCaller): UserRecord {
  if (!caller.user) throw new GatewayError('invalid_request_error', 'An admin token has no account of its own; pass a user id where the route accepts one.');
  return caller.user;
}

function readBearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  return header?.startsWith('Bearer ') ? header.slice(7).trim() || undefined : undefined;
}

function readSessionCookie(request: FastifyRequest): string | undefined {
  const cookies = request.headers.cookie;
  if (!cookies) return undefined;
  for (const part of cookies.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === sessionCookieName) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}
