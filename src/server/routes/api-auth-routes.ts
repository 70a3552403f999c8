import { auditActorOfCaller } from '../../accounts/audit-actor.js';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { checkPasswordSignIn } from '../../accounts/check-password-sign-in.js';
import { LoginAttemptLimiter, type LoginAttemptSubject } from '../../accounts/login-attempt-limiter.js';
import { hashNormalisedEmail, normaliseEmail } from '../../accounts/normalise-email.js';
import { passwordHasher } from '../../accounts/password-hash.js';
import { signInToConsole } from '../api/start-console-session.js';
import { beginSecondFactor, needsSecondFactor } from '../api/second-factor-challenge.js';
import { revokeAfterPasswordChange } from '../../accounts/revoke-after-password-change.js';
import { createApiKeyService } from '../../accounts/api-key-service.js';
import { accountActorOfCaller } from '../api/account-actor-of-caller.js';
import { GatewayError } from '../../core/gateway-error.js';
import { authenticateApiCaller, requireUser } from '../api/authenticate-api-caller.js';
import { encodeClearedSessionCookies, encodeSessionCookies, publicOriginOf } from '../api/console-cookies.js';
import { parseApiInput } from '../api/parse-api-input.js';
import { presentUser } from '../api/present-api-records.js';
import { refuseWhenHashingBusy } from '../api/refuse-when-hashing-busy.js';
import type { ApiRouteContext } from './api-routes.js';

const loginSchema = z.object({ email: z.string().min(1).max(320), password: z.string().min(1).max(1024) });
const passwordChangeSchema = z.object({
  currentPassword: z.string().min(1).max(1024),
  newPassword: z.string().min(8).max(200),
  revoke_other_sessions: z.boolean().default(true),
  revoke_api_keys: z.boolean().default(false),
});

/**
 * POST /api/auth/login (email + password -> session token, also set as a cookie) and POST /api/auth/logout.
 * Failed sign-ins are limited per account and per client address with exponential back-off (LoginAttemptLimiter),
 * checked with equal work whether or not the account exists, and logged without the password.
 */
export function registerApiAuthRoutes(app: FastifyInstance, { services, api }: ApiRouteContext): void {
  const attempts = new LoginAttemptLimiter({ redis: api.billing.sharedRedis });

  app.post('/auth/login', async (request, reply) => {
    const { email, password } = parseApiInput(loginSchema, request.body);
    const normalisedEmail = normaliseEmail(email);
    const subject: LoginAttemptSubject = { emailHash: hashNormalisedEmail(normalisedEmail), address: request.ip };
    const { user, needsRehash } = await checkPasswordSignIn(api.gatewayStore, passwordHasher, attempts, {
      normalisedEmail,
      password,
      address: subject.address,
    }).catch((error: unknown) => {
      // The limiter's refusals are GatewayErrors (429); the hasher's "busy" becomes one below.
      if (error instanceof GatewayError)
        request.log.warn(
          { clientAddress: subject.address, emailHash: subject.emailHash },
          'console sign-in refused: too many failed attempts',
        );
      return refuseWhenHashingBusy(error);
    });
    if (!user) {
      request.log.warn({ clientAddress: subject.address, emailHash: subject.emailHash }, 'console sign-in failed');
      throw new GatewayError('unauthorized', 'Wrong email or password.');
    }
    if (needsRehash) {
      // Today's parameters from now on; a failure here must not cost the user the sign-in.
      await passwordHasher
        .hash(password)
        .then((passwordHash) => api.gatewayStore.setUserPasswordHash(user.id, passwordHash))
        .catch((error: unknown) =>
          request.log.warn({ err: error, userId: user.id }, 're-hashing a password at current parameters failed'),
        );
    }
    // A two-factor account gets no session yet: the code finishes the sign-in (POST /api/auth/two-factor).
    if (await needsSecondFactor(api, user.id)) {
      const pending = await beginSecondFactor(request, reply, api, {
        userId: user.id,
        returnPath: '/',
        now: services.clock(),
      });
      return { twoFactorRequired: true, expiresAt: pending.expiresAt };
    }
    const { token, expiresAt } = await signInToConsole(request, reply, api, { userId: user.id, now: services.clock() });
    return { token, expiresAt, user: presentUser(user) };
  });

  // The same key service as /api/keys: keys revoked by a password change are applied key by key.
  const apiKeys = createApiKeyService({
    apiKeys: api.gatewayStore,
    groups: api.gatewayStore,
    audit: api.gatewayStore,
    billing: api.billing,
    routing: services.routing,
    maxKeysPerUser: services.config.maxKeysPerUser,
    clock: services.clock,
  });

  // Here rather than with the account routes so a wrong current password counts on the same limiter as sign-in.
  app.post('/me/password', async (request) => {
    const caller = await authenticateApiCaller(request, api, services.clock());
    const user = requireUser(caller);
    const input = parseApiInput(passwordChangeSchema, request.body);
    const { currentPassword, newPassword } = input;
    if (user.passwordHash === null)
      throw new GatewayError(
        'invalid_request_error',
        'This account signs in with a provider and has no password to change.',
        { param: 'currentPassword' },
      );
    const subject: LoginAttemptSubject = {
      emailHash: hashNormalisedEmail(normaliseEmail(user.email)),
      address: request.ip,
    };
    const storedHash = user.passwordHash;
    const check = await attempts
      .checkPassword(subject, true, () => passwordHasher.verify(currentPassword, storedHash))
      .catch(refuseWhenHashingBusy);
    if (!check.valid) {
      request.log.warn(
        { clientAddress: subject.address, emailHash: subject.emailHash },
        'password change refused: wrong current password',
      );
      throw new GatewayError('invalid_request_error', 'The current password is wrong.', { param: 'currentPassword' });
    }
    const passwordHash = await passwordHasher.hash(newPassword).catch(refuseWhenHashingBusy);
    await api.gatewayStore.setUserPasswordHash(user.id, passwordHash);
    const revoked = await revokeAfterPasswordChange(
      { sessions: api.signIn.store, apiKeys },
      accountActorOfCaller(caller),
      user.id,
      {
        keepSessionId: caller.sessionId,
        sessions: input.revoke_other_sessions,
        apiKeys: input.revoke_api_keys,
      },
    );
    await api.gatewayStore.recordAuditEntry({
      ...auditActorOfCaller({ user }),
      action: 'user.password.change',
      targetType: 'user',
      targetId: user.id,
      details: { ...revoked },
    });
    return { changed: true, ...revoked };
  });

  app.post('/auth/logout', async (request, reply) => {
    const caller = await authenticateApiCaller(request, api, services.clock());
    if (caller.sessionTokenHash) await api.signIn.store.deleteSessionByTokenHash(caller.sessionTokenHash);
    void reply.header('set-cookie', encodeClearedSessionCookies(publicOriginOf(request, api)));
    return { ok: true };
  });
}
