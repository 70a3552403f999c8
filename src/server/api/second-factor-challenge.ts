import type { FastifyReply, FastifyRequest } from 'fastify';
import { generateConsoleToken, hashConsoleToken } from '../../accounts/console-token.js';
import { isPlainHttpLoopback } from '../../accounts/public-origin.js';
import { hasTwoFactor } from '../../accounts/two-factor.js';
import type { ApiServices } from '../gateway-services.js';
import { publicOriginOf } from './console-cookies.js';
import { readRequestCookie } from './read-request-cookie.js';

/** Name of the cookie that binds a sign-in waiting for its second factor to the browser that began it. */
export const secondFactorCookieName = 'gateway_second_factor';

/** How long a sign-in waits for its second factor, in seconds. */
export const secondFactorLifetimeSeconds = 300;

/** True when the user has two-factor on, so a correct password or provider sign-in still needs a code. */
export async function needsSecondFactor(api: ApiServices, userId: string): Promise<boolean> {
  return hasTwoFactor(await api.twoFactor.store.find(userId));
}

/**
 * Parks a sign-in until its second factor: no session yet, only a short-lived challenge whose token is in an HttpOnly,
 * SameSite=Strict cookie on /api/auth, so only this browser can finish it (POST /api/auth/two-factor).
 */
export async function beginSecondFactor(
  request: FastifyRequest,
  reply: FastifyReply,
  api: ApiServices,
  options: { userId: string; returnPath: string; now: number },
): Promise<{ expiresAt: number }> {
  const token = generateConsoleToken('gwtfc-');
  const expiresAt = options.now + secondFactorLifetimeSeconds * 1000;
  const previous = readRequestCookie(request, secondFactorCookieName);
  if (previous) await api.twoFactor.store.deleteChallenge(hashConsoleToken(previous), options.now);
  await api.twoFactor.store.createChallenge(hashConsoleToken(token), {
    userId: options.userId,
    returnPath: options.returnPath,
    expiresAt,
  });
  void reply.header(
    'set-cookie',
    encodeSecondFactorCookie(encodeURIComponent(token), secondFactorLifetimeSeconds, publicOriginOf(request, api)),
  );
  return { expiresAt };
}

/** Set-Cookie of the second-factor cookie; Max-Age 0 clears it. */
export function encodeSecondFactorCookie(value: string, maxAgeSeconds: number, publicOrigin: string): string {
  const secure = isPlainHttpLoopback(publicOrigin) ? '' : '; Secure';
  return `${secondFactorCookieName}=${value}; Path=/api/auth; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}${secure}`;
}
