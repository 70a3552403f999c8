import type { Readable } from 'node:stream';
import { readUpstreamBody } from './read-upstream-body.js';
import { discardUpstreamBody } from './release-upstream-body.js';

/** A vendor body read whole, or the news that it was larger than allowed (then it was discarded, not read on). */
export type CappedUpstreamText = { kind: 'text'; text: string } | { kind: 'too-large' };

/**
 * Reads a vendor body as UTF-8 text, at most `maximumBytes` of it: a body that declares or reaches more is discarded
 * at once (its connection closed) instead of being held in memory. Rejects when the body fails (reset, body timeout).
 */
export async function readCappedUpstreamText(
  body: Readable,
  maximumBytes: number,
  declaredLength?: string,
): Promise<CappedUpstreamText> {
  if (declaredLength !== undefined && Number(declaredLength) > maximumBytes) {
    discardUpstreamBody(body);
    return { kind: 'too-large' };
  }
  const chunks: Buffer[] = [];
  let total = 0;
  const ending = await readUpstreamBody(body, (bytes) => {
    total += bytes.length;
    if (total > maximumBytes) return 'stop';
    chunks.push(bytes);
    return 'continue';
  });
  if (ending === 'stopped') {
    chunks.length = 0;
    discardUpstreamBody(body);
    return { kind: 'too-large' };
  }
  return {
    kind: 'text',
    text:
      chunks.length === 1
        ? (chunks[0] ?? Buffer.alloc(0)).toString('utf8')
        : Buffer.concat(chunks, total).toString('utf8'),
  };
}
