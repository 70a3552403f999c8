import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../../core/gateway-error.js';
import type { ConsoleSessionRecord } from '../../storage/sign-in-records.js';
import { requireUser } from '../api/authenticate-api-caller.js';
import type { ApiRouteContext } from './api-routes.js';

/**
 * The caller's console sessions: GET /api/auth/sessions (marking the current one), DELETE /api/auth/sessions/:id
 * (revoke one) and DELETE /api/auth/sessions (revoke all but the current one).
 */
export function registerApiSessionRoutes(app: FastifyInstance, { services, api }: ApiRouteContext): void {
  const { store } = api.signIn;

  app.get('/auth/sessions', async (request) => {
    const user = requireUser(request.apiCaller);
    const sessions = await store.listSessions(user.id, services.clock());
    return { data: sessions.map((session) => presentSession(session, request.apiCaller.sessionId)) };
  });

  app.delete<{ Params: { sessionId: string } }>('/auth/sessions/:sessionId', async (request) => {
    const user = requireUser(request.apiCaller);
    if (!(await store.deleteSession(user.id, request.params.sessionId)))
      throw new GatewayError('not_found', 'No such session.', { param: 'sessionId' });
    return { id: request.params.sessionId, deleted: true };
  });

  app.delete('/auth/sessions', async (request) => {
    const user = requireUser(request.apiCaller);
    const deleted = await store.deleteOtherSessions(user.id, request.apiCaller.sessionId);
    return { deleted };
  });
}

function presentSession(session: ConsoleSessionRecord, currentSessionId: string | undefined) {
  return {
    id: session.id,
    createdAt: session.createdAt,
    lastSeenAt: session.lastSeenAt,
    expiresAt: session.expiresAt,
    userAgent: session.userAgent,
    clientIp: session.clientIp,
    current: session.id === currentSessionId,
  };
}
