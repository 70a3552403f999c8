import type { FastifyInstance } from 'fastify';
import { auditActorOfCaller } from '../../accounts/audit-actor.js';
import { changeUserStatus } from '../../accounts/change-user-status.js';
import type { UserRecord } from '../../storage/store-records.js';
import { requireAdmin } from '../api/authenticate-api-caller.js';
import { presentUser } from '../api/present-api-records.js';
import type { ApiRouteContext } from './api-routes.js';

/**
 * `POST /api/users/:userId/disable` and `/enable` (admins): a disabled user cannot sign in, their sessions end at
 * once, and their keys stop at the next routing refresh (at once on this node). An admin cannot disable themself.
 */
export function registerApiUserStatusRoutes(app: FastifyInstance, { services, api }: ApiRouteContext): void {
  const { accountAdmin, billing, gatewayStore } = api;

  const changeStatus =
    (status: UserRecord['status']) =>
    async (request: { apiCaller: Parameters<typeof requireAdmin>[0]; params: { userId: string } }) => {
      requireAdmin(request.apiCaller);
      const { userId } = request.params;
      await changeUserStatus(
        { accountAdmin, gatewayStore, exclusive: (work) => billing.exclusive(work) },
        userId,
        status,
        auditActorOfCaller(request.apiCaller),
      );
      await services.routing.refresh();
      // Tells other nodes (through Redis) to reload, so the user's keys stop (or work again) there too.
      await billing.announceChange();
      const user = await billing.store.findUserById(userId);
      return user ? presentUser(user) : { id: userId, status };
    };

  app.post<{ Params: { userId: string } }>('/users/:userId/disable', changeStatus('disabled'));
  app.post<{ Params: { userId: string } }>('/users/:userId/enable', changeStatus('active'));
}
