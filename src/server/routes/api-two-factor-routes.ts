import type { AuditAction } from '../../storage/audit-actions.js';
import { auditActorOfCaller } from '../../accounts/audit-actor.js';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { hashConsoleToken } from '../../accounts/console-token.js';
import { hashNormalisedEmail, normaliseEmail } from '../../accounts/normalise-email.js';
import { passwordHasher } from '../../accounts/password-hash.js';
import { regenerateRecoveryCodes } from '../../accounts/regenerate-recovery-codes.js';
import { safeReturnPath } from '../../accounts/safe-return-path.js';
import {
  checkSecondFactor,
  confirmTwoFactor,
  hasTwoFactor,
  startTwoFactorEnrolment,
  type SecondFactor,
} from '../../accounts/two-factor.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { UserRecord } from '../../storage/store-records.js';
import { requireUser } from '../api/authenticate-api-caller.js';
import { publicOriginOf } from '../api/console-cookies.js';
import { parseApiInput } from '../api/parse-api-input.js';
import { presentUser } from '../api/present-api-records.js';
import { readRequestCookie } from '../api/read-request-cookie.js';
import { refuseWhenHashingBusy } from '../api/refuse-when-hashing-busy.js';
import { encodeSecondFactorCookie, secondFactorCookieName } from '../api/second-factor-challenge.js';
import { signInToConsole } from '../api/start-console-session.js';
import type { ApiRouteContext } from './api-routes.js';

const codeSchema = z.string().min(1).max(32);
const secondFactorSchema = z.union([
  z.object({ code: codeSchema }).strict(),
  z.object({ recoveryCode: codeSchema }).strict(),
]);
const confirmSchema = z.object({ code: codeSchema });
const disableSchema = z.union([
  z.object({ code: codeSchema }).strict(),
  z.object({ password: z.string().min(1).max(1024) }).strict(),
]);

/**
 * The second step of a sign-in, public: POST /api/auth/two-factor with `{code}` or `{recoveryCode}` and the
 * second-factor cookie a password or social sign-in of a two-factor account set; starts the session.
 */
export function registerApiSecondFactorRoutes(app: FastifyInstance, { services, api }: ApiRouteContext): void {
  app.post('/auth/two-factor', async (request, reply) => {
    const input = parseApiInput(secondFactorSchema, request.body);
    const now = services.clock();
    const token = readRequestCookie(request, secondFactorCookieName);
    const challenge = token ? await api.twoFactor.store.findChallenge(hashConsoleToken(token), now) : undefined;
    const user = challenge ? await api.billing.store.findUserById(challenge.userId) : undefined;
    if (token === undefined || challenge === undefined || user === undefined || user.status !== 'active')
      throw new GatewayError('unauthorized', 'No sign-in is waiting for a code in this browser; sign in again.');
    const factor: SecondFactor = 'code' in input ? { kind: 'code', code: input.code } : toRecovery(input.recoveryCode);
    const method = await checkSecondFactor(api.twoFactor, user, factor, { address: request.ip, now }).catch(
      (error: unknown) => {
        request.log.warn({ userId: user.id, clientAddress: request.ip }, 'second factor refused');
        throw error;
      },
    );
    await api.twoFactor.store.deleteChallenge(hashConsoleToken(token), now);
    void reply.header('set-cookie', encodeSecondFactorCookie('', 0, publicOriginOf(request, api)));
    if (method === 'recovery_code') {
      const left = (await api.twoFactor.store.find(user.id))?.recoveryCodesLeft ?? 0;
      await recordOwnAction(api, user, 'two_factor.recovery_code.use', { recoveryCodesLeft: left });
    }
    const session = await signInToConsole(request, reply, api, { userId: user.id, now });
    return { ...session, user: presentUser(user), returnPath: safeReturnPath(challenge.returnPath) };
  });
}

/**
 * The caller's own two-factor setup: GET /api/me/two-factor, POST /api/me/two-factor/enrol (a new secret and its
 * otpauth URI, not yet on), POST /api/me/two-factor/confirm `{code}` (on; the ten recovery codes, shown once) and
 * POST /api/me/two-factor/recovery-codes `{code}` (ten new recovery codes, shown once; the old ones stop working) and
 * POST /api/me/two-factor/disable `{code}` or `{password}`.
 */
export function registerApiTwoFactorRoutes(app: FastifyInstance, { services, api }: ApiRouteContext): void {
  const { twoFactor } = api;

  app.get('/me/two-factor', async (request) => {
    const user = requireUser(request.apiCaller);
    const record = await twoFactor.store.find(user.id);
    return {
      enabled: hasTwoFactor(record),
      enabledAt: record?.enabledAt ?? null,
      recoveryCodesLeft: hasTwoFactor(record) ? record.recoveryCodesLeft : 0,
      required: twoFactor.requireForAdmins && user.role === 'admin',
    };
  });

  app.post('/me/two-factor/enrol', async (request) => {
    const user = requireUser(request.apiCaller);
    return startTwoFactorEnrolment(twoFactor, user, services.clock());
  });

  app.post('/me/two-factor/confirm', async (request) => {
    const user = requireUser(request.apiCaller);
    const { code } = parseApiInput(confirmSchema, request.body);
    const recoveryCodes = await confirmTwoFactor(twoFactor, user, code, services.clock());
    await recordOwnAction(api, user, 'two_factor.enable', {});
    return { enabled: true, recoveryCodes };
  });

  app.post('/me/two-factor/recovery-codes', async (request) => {
    const user = requireUser(request.apiCaller);
    const { code } = parseApiInput(confirmSchema, request.body);
    const recoveryCodes = await regenerateRecoveryCodes(twoFactor, user, code, {
      address: request.ip,
      now: services.clock(),
    });
    await recordOwnAction(api, user, 'two_factor.recovery_codes.regenerate', { recoveryCodes: recoveryCodes.length });
    return { recoveryCodes };
  });

  app.post('/me/two-factor/disable', async (request) => {
    const user = requireUser(request.apiCaller);
    const input = parseApiInput(disableSchema, request.body);
    if (!hasTwoFactor(await twoFactor.store.find(user.id)))
      throw new GatewayError('invalid_request_error', 'Two-factor sign-in is not on.');
    if (twoFactor.requireForAdmins && user.role === 'admin')
      throw new GatewayError('forbidden', 'Administrators must keep two-factor sign-in on here.');
    const now = services.clock();
    if ('code' in input) {
      // A wrong code is the input's fault here, not the session's: 400, so the console keeps its session.
      await checkSecondFactor(twoFactor, user, { kind: 'code', code: input.code }, { address: request.ip, now }).catch(
        (error: unknown) => {
          if (error instanceof GatewayError && error.code === 'unauthorized')
            throw new GatewayError('invalid_request_error', error.message, { param: 'code' });
          throw error;
        },
      );
    } else {
      await requirePassword(user, input.password, request.ip);
    }
    await twoFactor.store.disable(user.id);
    await recordOwnAction(api, user, 'two_factor.disable', { confirmedWith: 'code' in input ? 'code' : 'password' });
    return { enabled: false };
  });

  async function requirePassword(user: UserRecord, password: string, address: string): Promise<void> {
    const storedHash = user.passwordHash;
    if (storedHash === null)
      throw new GatewayError('invalid_request_error', 'This account has no password; confirm with a code.', {
        param: 'password',
      });
    const subject = { emailHash: hashNormalisedEmail(normaliseEmail(user.email)), address };
    const check = await twoFactor.attempts
      .checkPassword(subject, true, () => passwordHasher.verify(password, storedHash))
      .catch(refuseWhenHashingBusy);
    if (!check.valid) throw new GatewayError('invalid_request_error', 'The password is wrong.', { param: 'password' });
  }
}

function toRecovery(recoveryCode: string): SecondFactor {
  return { kind: 'recovery_code', recoveryCode };
}

/** A user's own security change in the audit log (the user is actor and target). */
async function recordOwnAction(
  api: ApiRouteContext['api'],
  user: UserRecord,
  action: AuditAction,
  details: Record<string, unknown>,
): Promise<void> {
  await api.gatewayStore.recordAuditEntry({
    ...auditActorOfCaller({ user }),
    action,
    targetType: 'user',
    targetId: user.id,
    details,
  });
}
