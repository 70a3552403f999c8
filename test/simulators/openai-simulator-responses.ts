// The Responses API routes: POST /v1/responses (JSON or events), GET and DELETE /v1/responses/{id}, GET …/input_items.
import type { EndpointHandler } from './openai-simulator-endpoint.js';
import { invalidRequest, SimulatedError } from './openai-simulator-errors.js';
import { responsesStreamPlan } from './openai-simulator-responses-events.js';
import type { ResponseItem } from './openai-simulator-responses-items.js';
import { failedResponse, finishedResponse, inProgressResponse } from './openai-simulator-responses-object.js';
import { generateOutput } from './openai-simulator-responses-reply.js';
import { validateResponsesRequest } from './openai-simulator-responses-request.js';
import type { ResponsesStore } from './openai-simulator-responses-store.js';
import { randomIdentifier } from './openai-simulator-text.js';
import { checkIntegerRange } from './openai-simulator-validation.js';

/** One page of `GET /v1/responses/{id}/input_items`. */
export interface InputItemPage {
  object: 'list';
  data: ResponseItem[];
  first_id: string | null;
  last_id: string | null;
  has_more: boolean;
}

const defaultPageSize = 20;

/** The handler of `POST /v1/responses`, keeping what it answers in `store` unless the request says `store: false`. */
export function createResponseHandler(store: ResponsesStore): EndpointHandler {
  return ({ body, behaviour }) => {
    const request = validateResponsesRequest(body, (id) => store.findItem(id));
    const context = [...previousContext(store, request.previousResponseId), ...request.input];
    const output = generateOutput(request, context, behaviour);
    const start = inProgressResponse(`resp_${randomIdentifier()}${randomIdentifier()}`, request);
    const final = finishedResponse(start, output.items, output.status, output.usage);
    const failsMidStream = request.stream && behaviour.kind === 'stream-error-event';
    if (request.store)
      store.save({ response: failsMidStream ? failedResponse(start) : final, input: request.input, context });
    if (!request.stream) return { kind: 'json', body: final };
    return { kind: 'stream', plan: responsesStreamPlan(start, final, request.includeObfuscation) };
  };
}

/** `GET /v1/responses/{id}`: the stored response. */
export function retrieveResponse(store: ResponsesStore, id: string): unknown {
  return findStored(store, id).response;
}

/** `DELETE /v1/responses/{id}`: forgets the response. */
export function deleteResponse(store: ResponsesStore, id: string): unknown {
  if (!store.delete(id)) throw responseNotFound(id);
  return { id, object: 'response', deleted: true };
}

/** `GET /v1/responses/{id}/input_items?limit&order&after`: the request's own input items, newest first by default. */
export function listInputItems(store: ResponsesStore, id: string, query: Record<string, unknown>): InputItemPage {
  const stored = findStored(store, id);
  const limit = readLimit(query.limit);
  const order = query.order ?? 'desc';
  if (order !== 'asc' && order !== 'desc')
    throw invalidRequest(
      `Invalid value: '${String(order)}'. Supported values are: 'asc' and 'desc'.`,
      'order',
      'invalid_value',
    );
  const ordered = order === 'asc' ? stored.input : [...stored.input].reverse();
  const afterIndex = typeof query.after === 'string' ? ordered.findIndex((item) => item.id === query.after) : -1;
  const remaining = ordered.slice(afterIndex + 1);
  const data = remaining.slice(0, limit);
  return {
    object: 'list',
    data,
    first_id: data[0]?.id ?? null,
    last_id: data.at(-1)?.id ?? null,
    has_more: remaining.length > limit,
  };
}

/** The conversation a `previous_response_id` continues: that response's context and output (not its instructions). */
function previousContext(store: ResponsesStore, previousResponseId: string | null): ResponseItem[] {
  if (previousResponseId === null) return [];
  const previous = store.find(previousResponseId);
  if (previous === undefined) {
    throw new SimulatedError(404, `Previous response with id '${previousResponseId}' not found.`, {
      param: 'previous_response_id',
      code: 'previous_response_not_found',
    });
  }
  return [...previous.context, ...previous.response.output];
}

function findStored(store: ResponsesStore, id: string) {
  const stored = store.find(id);
  if (stored === undefined) throw responseNotFound(id);
  return stored;
}

function responseNotFound(id: string): SimulatedError {
  return new SimulatedError(404, `Response with id '${id}' not found.`);
}

function readLimit(value: unknown): number {
  if (value === undefined) return defaultPageSize;
  const limit = { limit: typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value };
  checkIntegerRange(limit, 'limit', 1, 100);
  return limit.limit as number;
}
