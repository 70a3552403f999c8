import type { z } from 'zod';
import { GatewayError } from '../../core/gateway-error.js';
import { formatParamPath } from './format-param-path.js';

/**
 * Runs a client protocol's request schema; the first issue becomes a 400 naming its parameter (`input[2].call_id`),
 * worded "Missing required parameter" when the value is absent and "Invalid value" otherwise, as OpenAI words them.
 */
export function validateProtocolBody<Schema extends z.ZodType>(
  schema: Schema,
  fields: Record<string, unknown>,
): z.output<Schema> {
  // `reportInput` puts the offending value on each issue, so a missing field can be told from a wrong one.
  const result = schema.safeParse(fields, { reportInput: true });
  if (result.success) return result.data;
  const first = result.error.issues[0];
  if (!first) throw new GatewayError('invalid_request_error', 'The request body is invalid.');
  const { issue, path } = mostSpecificIssue(first, first.path);
  const param = formatParamPath(path);
  const missing = (issue.code === 'invalid_type' || issue.code === 'invalid_union') && issue.input === undefined;
  const message = missing
    ? `Missing required parameter: '${param}'.`
    : `Invalid value for '${param}': ${issue.message}`;
  throw new GatewayError('invalid_request_error', message, { param: param || null });
}

/**
 * A union (such as Responses `input`: a string or items) reports one issue for all its branches; the branch that got
 * furthest (the longest path) names the real culprit, e.g. `input[2].call_id` instead of `input`.
 */
function mostSpecificIssue(
  issue: z.core.$ZodIssue,
  path: readonly PropertyKey[],
): { issue: z.core.$ZodIssue; path: readonly PropertyKey[] } {
  if (issue.code !== 'invalid_union') return { issue, path };
  let best: z.core.$ZodIssue | undefined;
  for (const branch of issue.errors) {
    const candidate = branch[0];
    if (candidate && (!best || candidate.path.length > best.path.length)) best = candidate;
  }
  if (!best || best.path.length === 0) return { issue, path };
  return mostSpecificIssue(best, [...path, ...best.path]);
}
