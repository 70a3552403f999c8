import type { FastifyReply } from 'fastify';
import { generateConsoleToken, hashConsoleToken, sessionTokenPrefix } from '../../accounts/console-token.js';
import type { ApiServices } from '../gateway-services.js';
import { sessionCookieName } from './authenticate-api-caller.js';

/** Signs a user in: a new session record (only its hash stored) and the session cookie, as `POST /api/auth/login` sets it. */
export async function startConsoleSession(reply: FastifyReply, api: ApiServices, options: { userId: string; now: number }): Promise<{ token: string; expiresAt: number }> {
  const token = generateConsoleToken(sessionTokenPrefix);
  const lifetimeHours = api.billing.config.sessionLifetimeHours;
  const expiresAt = options.now + lifetimeHours * 3_600_000;
  await api.billing.store.createSession({ tokenHash: hashConsoleToken(token), userId: options.userId, expiresAt });
  void reply.header('set-cookie', `${sessionCookieName}=${encodeURIComponent(token)}; Path=/api; HttpOnly; SameSite=Strict; Max-Age=${lifetimeHours * 3600}`);
  return { token, expiresAt };
}
