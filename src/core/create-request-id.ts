import { randomFillSync } from 'node:crypto';

/** Random bytes drawn in blocks: one system call per 409 ids, each id's 10 bytes read as hex once. */
const randomPool = Buffer.alloc(4096);
/** Where the next id's random bytes start in `randomPool`; the pool's length means it must be refilled first. */
let randomOffset = randomPool.length;
/** Random bytes per id: 20 hex digits. */
const randomBytesPerId = 10;

/**
 * A request id in OpenAI's shape, `req_` + 32 hex digits, that sorts by arrival: 12 hex digits of Unix milliseconds,
 * then 20 random ones. Usage logs index it, and ids that grow land at the end of that index instead of at random
 * places in it, so a usage row costs the same to write with a million rows as with none. The random part keeps
 * ids unguessable and says nothing about how many requests the gateway serves.
 */
export function createRequestId(now: number = Date.now()): string {
  if (randomOffset + randomBytesPerId > randomPool.length) {
    randomFillSync(randomPool);
    randomOffset = 0;
  }
  // One flat hex string straight from the bytes (a UUID is formatted by concatenating 20 pieces, about 800 bytes of
  // garbage per id); join keeps the id one flat string too, where a template literal would leave a tree of pieces.
  const random = randomPool.toString('hex', randomOffset, randomOffset + randomBytesPerId);
  randomOffset += randomBytesPerId;
  return ['req_', now.toString(16).padStart(12, '0'), random].join('');
}
