import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { grantDefaultGroups } from '../../accounts/grant-default-groups.js';
import { normaliseEmail } from '../../accounts/normalise-email.js';
import { hashPassword } from '../../accounts/password-hash.js';
import { GatewayError } from '../../core/gateway-error.js';
import { parseApiInput } from '../api/parse-api-input.js';
import { presentUser } from '../api/present-api-records.js';
import { refuseWhenHashingBusy } from '../api/refuse-when-hashing-busy.js';
import { signInToConsole } from '../api/start-console-session.js';
import type { ApiRouteContext } from './api-routes.js';

const setupSchema = z.object({
  token: z.string().min(1).max(200),
  email: z.string().email().max(320),
  password: z.string().min(8).max(200),
  displayName: z.string().min(1).max(100).optional(),
});

/** The answer once setup has closed, whichever step of a request found out. */
function setupClosed(): GatewayError {
  return new GatewayError('not_found', 'Setup is closed: this gateway already has an administrator.');
}

/**
 * First-run setup (public): `GET /api/setup` says whether it is open; `POST /api/setup` with the one-time token that
 * `gateway start` printed creates the first administrator, grants the default groups, signs them in and closes setup
 * for good. Setup is open only while the database has no administrator, however one was made.
 */
export function registerApiSetupRoutes(app: FastifyInstance, { services, api }: ApiRouteContext): void {
  const { setup, accountAdmin, billing, gatewayStore } = api;

  /** Open while the token is unused and no admin exists (one made with `gateway admin create` closes it too). */
  async function isOpen(): Promise<boolean> {
    if (!setup.isOpen) return false;
    if ((await accountAdmin.countAdmins()) === 0) return true;
    setup.close();
    return false;
  }

  app.get('/setup', async () => ({ open: await isOpen() }));

  app.post('/setup', async (request, reply) => {
    if (!(await isOpen())) throw setupClosed();
    const input = parseApiInput(setupSchema, request.body);
    const check = setup.check(input.token);
    if (check === 'closed') throw setupClosed();
    if (check === 'wrong-token') {
      request.log.warn({ clientAddress: request.ip }, 'first-run setup refused: wrong token');
      throw new GatewayError('forbidden', 'The setup token is not valid.');
    }
    const passwordHash = await hashPassword(input.password).catch(refuseWhenHashingBusy);
    // Consumes the token synchronously: of concurrent calls with the right token, only one gets here.
    const reopen = setup.claim(input.token);
    if (!reopen) throw setupClosed();
    const email = normaliseEmail(input.email);
    const user = await billing
      .exclusive(async () => {
        if ((await accountAdmin.countAdmins()) > 0) return undefined;
        return gatewayStore.createUser({
          email,
          displayName: input.displayName ?? email.split('@')[0] ?? email,
          role: 'admin',
          passwordHash,
        });
      })
      .catch((error: unknown) => {
        // Nothing was created: the operator may try again with the same token.
        reopen();
        throw new GatewayError(
          'invalid_request_error',
          error instanceof Error ? error.message : 'The administrator could not be created',
          { param: 'email' },
        );
      });
    if (!user) throw setupClosed();
    const groups = await billing.exclusive(() => grantDefaultGroups(gatewayStore, user.id, services.config));
    request.log.info({ userId: user.id }, 'first-run setup created the first administrator; setup is closed');
    await services.routing.refresh();
    await billing.announceChange();
    const session = await signInToConsole(request, reply, api, { userId: user.id, now: services.clock() });
    return { ...session, user: presentUser(user), groups: groups.map((group) => group.name) };
  });
}
