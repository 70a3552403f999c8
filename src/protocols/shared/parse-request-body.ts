import type { z } from 'zod';
import { GatewayError } from '../../core/gateway-error.js';
import type { SparseLooseObject } from './sparse-loose-object.js';

/** Validates a request body; the first problem becomes a 400 naming the parameter, OpenAI style (`messages[0].role`). */
export function parseRequestBody<Schema extends z.ZodType>(schema: Schema, body: unknown): z.output<Schema> {
  if (!isJsonObject(body)) {
    throw new GatewayError('invalid_request_error', 'The request body must be a JSON object.');
  }
  // `reportInput` puts the offending value on each issue, so a missing field can be told from a wrong one.
  const result = schema.safeParse(body, { reportInput: true });
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (!issue) throw new GatewayError('invalid_request_error', 'The request body is invalid.');
  const param = formatParamPath(issue.path);
  const missing = (issue.code === 'invalid_type' || issue.code === 'invalid_union') && issue.input === undefined;
  const message = missing
    ? `Missing required parameter: '${param}'.`
    : `Invalid value for '${param}': ${issue.message}`;
  throw new GatewayError('invalid_request_error', message, { param: param || null });
}

/** `parseRequestBody` for a `createSparseLooseObject` schema: its fast path for a valid body, zod's whole parse otherwise. */
export function parseSparseRequestBody<Output>(schema: SparseLooseObject<Output>, body: unknown): Output {
  const valid = isJsonObject(body) ? schema.parseValid(body) : undefined;
  return valid ?? parseRequestBody(schema.full, body);
}

function isJsonObject(body: unknown): body is Record<string, unknown> {
  return body !== null && typeof body === 'object' && !Array.isArray(body);
}

/** `['messages', 0, 'content']` -> `messages[0].content` */
export function formatParamPath(path: readonly PropertyKey[]): string {
  let formatted = '';
  for (const segment of path) {
    if (typeof segment === 'number') formatted += `[${segment}]`;
    else formatted += formatted ? `.${String(segment)}` : String(segment);
  }
  return formatted;
}
