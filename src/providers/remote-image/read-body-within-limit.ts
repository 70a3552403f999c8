import type { Readable } from 'node:stream';

/** Reads a body whole, or stops (destroying it) and returns undefined as soon as it passes `maxBytes`. */
export async function readBodyWithinLimit(body: Readable, maxBytes: number): Promise<Buffer | undefined> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of body) {
    total += chunk.byteLength;
    if (total > maxBytes) {
      // Destroying emits an abort error; the caller has its answer already.
      body.on('error', () => undefined);
      body.destroy();
      return undefined;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, total);
}
