import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { GatewayError } from '../../core/gateway-error.js';
import type { StoredResponseRecord } from '../../storage/responses-store.js';
import type { ResponsesServices } from '../gateway-services.js';
import { parseRequestBody } from '../../protocols/shared/parse-request-body.js';

const idParams = z.object({ id: z.string().min(1) });

/** `GET …/input_items` query: OpenAI's defaults (20, newest first); unknown parameters such as `include[]` are ignored. */
const inputItemsQuery = z.looseObject({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  order: z.enum(['asc', 'desc']).default('desc'),
  after: z.string().min(1).optional(),
});

/**
 * `GET /v1/responses/{id}`, `DELETE /v1/responses/{id}` and `GET /v1/responses/{id}/input_items`: the caller's own
 * stored responses only; another user's id, a deleted one or one created with `store: false` is a 404.
 */
export function registerResponsesReadRoutes(app: FastifyInstance, responses: ResponsesServices): void {
  const findOwn = async (id: string, userId: string): Promise<StoredResponseRecord> => {
    const record = await responses.store.find(id, userId);
    if (!record) throw responseNotFound(id);
    return record;
  };

  app.get('/v1/responses/:id', async (request) => {
    const { id } = parseRequestBody(idParams, request.params);
    return (await findOwn(id, request.principal.userId)).response;
  });

  app.delete('/v1/responses/:id', async (request) => {
    const { id } = parseRequestBody(idParams, request.params);
    if (!(await responses.store.delete(id, request.principal.userId))) throw responseNotFound(id);
    return { id, object: 'response', deleted: true };
  });

  app.get('/v1/responses/:id/input_items', async (request) => {
    const { id } = parseRequestBody(idParams, request.params);
    const query = parseRequestBody(inputItemsQuery, request.query);
    const record = await findOwn(id, request.principal.userId);
    const ordered = query.order === 'asc' ? record.inputItems : [...record.inputItems].reverse();
    const afterIndex = query.after === undefined ? -1 : ordered.findIndex((item) => item.id === query.after);
    if (query.after !== undefined && afterIndex === -1) {
      throw new GatewayError(
        'invalid_request_error',
        `Invalid value for 'after': no input item '${query.after}' in this response.`,
        { param: 'after' },
      );
    }
    const remaining = ordered.slice(afterIndex + 1);
    const data = remaining.slice(0, query.limit);
    return {
      object: 'list',
      data,
      first_id: idOf(data[0]),
      last_id: idOf(data.at(-1)),
      has_more: remaining.length > query.limit,
    };
  });
}

function idOf(item: Record<string, unknown> | undefined): string | null {
  return typeof item?.id === 'string' ? item.id : null;
}

function responseNotFound(id: string): GatewayError {
  return new GatewayError('not_found', `Response with id '${id}' not found.`);
}
