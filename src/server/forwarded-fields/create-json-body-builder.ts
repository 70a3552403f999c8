import type { FastifyRequest } from 'fastify';
import type { RoutableChannel } from '../../routing/routing-table.js';
import type { ForwardedFieldPlan } from './plan-forwarded-fields.js';

/**
 * The upstream body of a JSON endpoint for each channel: the client's own bytes when the channel gets the request
 * unchanged (same fields, same model name), else the planned body encoded with the channel's model name. Forwarding
 * the bytes saves a JSON encoding and its UTF-8 copy: for a 1 MB image, a fifth of the gateway's CPU.
 */
export function createJsonBodyBuilder(request: FastifyRequest, plan: ForwardedFieldPlan): (upstreamModelId: string, channel: RoutableChannel) => string | Uint8Array {
  // null until a channel first gets the body unchanged; then the client's bytes, or undefined when they cannot be used
  let unchangedBytes: Uint8Array | undefined | null = null;
  return (upstreamModelId, channel) => {
    const body = plan.bodyFor(channel);
    if (body === plan.body && body.model === upstreamModelId) {
      if (unchangedBytes === null) unchangedBytes = unchangedRawJsonBody(request, body);
      if (unchangedBytes !== undefined) return unchangedBytes;
    }
    return JSON.stringify({ ...body, model: upstreamModelId });
  };
}

/**
 * The request's JSON bytes when they say exactly what `validated` says: no key twice at the top level (a vendor might
 * read the first of two `model`s where the gateway routed and billed the last) and the same value throughout (the
 * schema changed nothing). Strings are compared by identity first, so a long base64 string costs nothing to compare.
 */
export function unchangedRawJsonBody(request: FastifyRequest, validated: Readonly<Record<string, unknown>>): Uint8Array | undefined {
  const raw = request.rawJsonBody;
  if (raw === null || raw.topLevelMembers !== Object.keys(validated).length) return undefined;
  return sameJsonValue(request.body, validated) ? raw.bytes : undefined;
}

function sameJsonValue(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (typeof left !== 'object' || typeof right !== 'object' || left === null || right === null) return false;
  if (Array.isArray(left) !== Array.isArray(right)) return false;
  const leftRecord = left as Record<string, unknown>;
  const rightRecord = right as Record<string, unknown>;
  let leftKeys = 0;
  for (const key in leftRecord) {
    leftKeys += 1;
    if (!Object.hasOwn(rightRecord, key) || !sameJsonValue(leftRecord[key], rightRecord[key])) return false;
  }
  let rightKeys = 0;
  for (const key in rightRecord) if (Object.hasOwn(rightRecord, key)) rightKeys += 1;
  return leftKeys === rightKeys;
}
