import type { FastifyReply, FastifyRequest } from 'fastify';
import { startConsoleSession } from '../../accounts/start-console-session.js';
import type { ApiServices } from '../gateway-services.js';
import { encodeSessionCookies, publicOriginOf } from './console-cookies.js';

/**
 * Signs a user in to the console, the same way for a password, a social sign-in and first-run setup: a new session
 * (only its token's hash stored, with the caller's user agent and address) and the session cookie on the reply.
 */
export async function signInToConsole(
  request: FastifyRequest,
  reply: FastifyReply,
  api: ApiServices,
  options: { userId: string; now: number },
): Promise<{ token: string; expiresAt: number }> {
  const lifetimeHours = api.billing.config.sessionLifetimeHours;
  const { token, session } = await startConsoleSession(api.signIn.store, {
    userId: options.userId,
    lifetimeHours,
    now: options.now,
    userAgent: request.headers['user-agent'],
    clientIp: request.ip,
  });
  void reply.header(
    'set-cookie',
    encodeSessionCookies(token, { maxAgeSeconds: lifetimeHours * 3600, publicOrigin: publicOriginOf(request, api) }),
  );
  return { token, expiresAt: session.expiresAt };
}
