import type { FastifyInstance } from 'fastify';
import { createRateLimitError } from '../billing/rate-limit-refusal.js';
import type { RefusedRequest } from '../billing/refused-request-counter.js';
import { callWhenResponseEnds } from './call-when-response-ends.js';

/**
 * Caps the /v1 requests one user (all their keys together) has in flight at once on this node (0 = no cap), so one
 * user cannot fill the process's in-flight cap. Registered in the keyed scope: a request counts once its key is
 * authenticated and its JSON body has arrived (`preHandler`, like the process's cap), and is released when its
 * response ends however it ends (finished, failed, streamed to the end or cut by the client). Beyond the cap it gets
 * 429 `rate_limit_exceeded` with `Retry-After: 1`. The count lives in this process: on several nodes each has its own.
 */
export function limitInFlightPerUser(
  scope: FastifyInstance,
  maxPerUser: number,
  countRefusal: (refusal: RefusedRequest) => void,
): void {
  if (maxPerUser <= 0) return;
  const inFlightByUser = new Map<string, number>();
  scope.addHook('preHandler', (request, reply, done) => {
    const userId = request.principal.userId;
    const inFlight = inFlightByUser.get(userId) ?? 0;
    if (inFlight >= maxPerUser) {
      const limits = { requestsPerMinute: 0, tokensPerMinute: 0, maxConcurrentRequests: maxPerUser };
      const state = { remainingPoints: 0, msBeforeNext: 0 };
      const error = createRateLimitError('concurrent', maxPerUser, { scope: 'user', id: userId, limits }, state);
      // Counted like the billing refusals (per minute, key, model and code), not as a usage row each.
      countRefusal({
        receivedAt: request.receivedAt,
        userId,
        apiKeyId: request.principal.apiKeyId,
        model: modelOf(request.body),
        status: error.status,
        errorCode: error.code,
      });
      done(error);
      return;
    }
    inFlightByUser.set(userId, inFlight + 1);
    callWhenResponseEnds(request, reply, () => {
      const left = (inFlightByUser.get(userId) ?? 1) - 1;
      if (left > 0) inFlightByUser.set(userId, left);
      else inFlightByUser.delete(userId);
    });
    done();
  });
}

/** The model a JSON body names, else empty (a multipart upload is read by its handler, after this check). */
function modelOf(body: unknown): string {
  if (typeof body !== 'object' || body === null || !('model' in body)) return '';
  return typeof body.model === 'string' ? body.model.slice(0, 200) : '';
}
