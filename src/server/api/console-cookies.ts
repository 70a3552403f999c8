import type { FastifyRequest } from 'fastify';
import { oauthTransactionCookieName, oauthTransactionLifetimeSeconds } from '../../accounts/oauth-transaction.js';
import { isPlainHttpLoopback, resolvePublicOrigin } from '../../accounts/public-origin.js';
import type { ApiServices } from '../gateway-services.js';

/** Name of the cookie that carries a console session token. */
export const sessionCookieName = 'gateway_session';

/** The gateway's public origin for this request: GATEWAY_PUBLIC_URL or `http://127.0.0.1:<the port it was reached on>`. */
export function publicOriginOf(request: FastifyRequest, api: ApiServices): string {
  return resolvePublicOrigin(api.signIn.config.publicUrl, request.socket.localPort);
}

/**
 * Set-Cookie values that start a session: `gateway_session` on Path=/ (the console at / calls /api), HttpOnly,
 * SameSite=Lax (sent on the top-level redirect back from a sign-in provider), Secure unless the public origin is plain
 * http on loopback; plus the removal of the cookie releases before this one set on Path=/api.
 */
export function encodeSessionCookies(
  token: string,
  options: { maxAgeSeconds: number; publicOrigin: string },
): string[] {
  return [
    `${sessionCookieName}=${encodeURIComponent(token)}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${options.maxAgeSeconds}${secureFlag(options.publicOrigin)}`,
    `${sessionCookieName}=; Path=/api; HttpOnly; SameSite=Strict; Max-Age=0`,
  ];
}

/** Set-Cookie values that end the session cookie (both the current and the former path). */
export function encodeClearedSessionCookies(publicOrigin: string): string[] {
  return [
    `${sessionCookieName}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secureFlag(publicOrigin)}`,
    `${sessionCookieName}=; Path=/api; HttpOnly; SameSite=Strict; Max-Age=0`,
  ];
}

/** Set-Cookie of the sign-in attempt cookie: Path=/api/auth, HttpOnly, SameSite=Lax, ten minutes; empty value clears it. */
export function encodeOauthTransactionCookie(value: string, publicOrigin: string): string {
  const maxAge = value === '' ? 0 : oauthTransactionLifetimeSeconds;
  return `${oauthTransactionCookieName}=${value}; Path=/api/auth; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secureFlag(publicOrigin)}`;
}

function secureFlag(publicOrigin: string): string {
  return isPlainHttpLoopback(publicOrigin) ? '' : '; Secure';
}
