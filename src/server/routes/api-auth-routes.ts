import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { generateConsoleToken, hashConsoleToken, sessionTokenPrefix } from '../../accounts/console-token.js';
import { verifyPassword } from '../../accounts/password-hash.js';
import { GatewayError } from '../../core/gateway-error.js';
import { authenticateApiCaller, sessionCookieName } from '../api/authenticate-api-caller.js';
import { parseApiInput } from '../api/parse-api-input.js';
import { presentUser } from '../api/present-api-records.js';
import type { ApiRouteContext } from './api-routes.js';

const loginSchema = z.object({ email: z.string().min(1), password: z.string().min(1) });

/** POST /api/auth/login (email + password -> session token, also set as a cookie) and POST /api/auth/logout. */
export function registerApiAuthRoutes(app: FastifyInstance, { services, api }: ApiRouteContext): void {
  app.post('/auth/login', async (request, reply) => {
    const { email, password } = parseApiInput(loginSchema, request.body);
    const user = await api.gatewayStore.findUserByEmail(email.toLowerCase());
    const valid = user?.passwordHash ? await verifyPassword(password, user.passwordHash) : false;
    if (!user || !valid || user.status !== 'active') throw new GatewayError('unauthorized', 'Wrong email or password.');
    const token = generateConsoleToken(sessionTokenPrefix);
    const expiresAt = services.clock() + api.billing.config.sessionLifetimeHours * 3_600_000;
    await api.billing.store.createSession({ tokenHash: hashConsoleToken(token), userId: user.id, expiresAt });
    void reply.header(
      'set-cookie',
      `${sessionCookieName}=${encodeURIComponent(token)}; Path=/api; HttpOnly; SameSite=Strict; Max-Age=${api.billing.config.sessionLifetimeHours * 3600}`,
    );
    return { token, expiresAt, user: presentUser(user) };
  });

  app.post('/auth/logout', async (request, reply) => {
    const caller = await authenticateApiCaller(request, api, services.clock());
    if (caller.sessionTokenHash) await api.billing.store.deleteSession(caller.sessionTokenHash);
    void reply.header('set-cookie', `${sessionCookieName}=; Path=/api; HttpOnly; SameSite=Strict; Max-Age=0`);
    return { ok: true };
  });
}
