import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { GatewayError } from '../../core/gateway-error.js';
import { requireAdmin } from '../api/authenticate-api-caller.js';
import { parseApiInput } from '../api/parse-api-input.js';
import type { ApiRouteContext } from './api-routes.js';

const parametersSchema = z.object({
  /** the `x-request-id` a /v1 answer carried (also in the request's usage log) */
  requestId: z.string().min(1).max(128),
});

/**
 * GET /api/admin/request-bodies/:requestId (admins only): the request and answer bodies the optional body log kept for
 * one request (GATEWAY_REQUEST_BODY_LOG=on), each cut at the size cap and marked when cut. They hold users' content.
 */
export function registerApiRequestBodyRoutes(app: FastifyInstance, { api }: ApiRouteContext): void {
  app.get('/admin/request-bodies/:requestId', async (request) => {
    requireAdmin(request.apiCaller);
    const { requestId } = parseApiInput(parametersSchema, request.params);
    const store = api.billing.options.requestBodies;
    const record = store === undefined ? undefined : await store.findRequestBody(requestId);
    if (!record)
      throw new GatewayError(
        'not_found',
        api.billing.requestBodyLog
          ? 'No bodies were kept for this request id (streamed, not JSON, dropped, or past their retention).'
          : 'No bodies were kept for this request id; the request body log is off (GATEWAY_REQUEST_BODY_LOG).',
        { param: 'requestId' },
      );
    return record;
  });
}
