import { randomUUID } from 'node:crypto';

/**
 * A request id in OpenAI's shape, `req_` + 32 hex digits, that sorts by arrival: 12 hex digits of Unix milliseconds,
 * then 20 random ones. Usage logs index it, and ids that grow land at the end of that index instead of at random
 * places in it, so a usage row costs the same to write with a million rows as with none. The random part keeps
 * ids unguessable and says nothing about how many requests the gateway serves.
 */
export function createRequestId(now: number = Date.now()): string {
  // A v4 UUID's first 8 and last 12 hex digits are random (its version and variant digits sit between them).
  const uuid = randomUUID();
  // join builds one flat string; a template literal would leave a tree of four pieces for the request's life.
  return ['req_', now.toString(16).padStart(12, '0'), uuid.slice(0, 8), uuid.slice(24)].join('');
}
