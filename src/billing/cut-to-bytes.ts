/** A body as the body log keeps it: its text cut at a byte cap, its full size, and whether it was cut. */
export interface CutBody {
  text: string;
  /** bytes of the whole body */
  bytes: number;
  truncated: boolean;
}

/**
 * The first `maxBytes` bytes of a UTF-8 body as text, cut back to a character boundary so no character is split; the
 * result is a copy, so a kept cut does not hold the whole body in memory.
 */
export function cutToBytes(body: Buffer | string, maxBytes: number): CutBody {
  const bytes = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  if (bytes <= maxBytes)
    return { text: typeof body === 'string' ? body : body.toString('utf8'), bytes, truncated: false };
  // A string's first maxBytes characters hold at least maxBytes bytes: only that part is encoded.
  const encoded = typeof body === 'string' ? Buffer.from(body.slice(0, maxBytes)) : body;
  let end = maxBytes;
  // Continuation bytes are 10xxxxxx: back off to the first byte of the character the cap falls in.
  while (end > 0 && ((encoded[end] ?? 0) & 0xc0) === 0x80) end -= 1;
  return { text: encoded.subarray(0, end).toString('utf8'), bytes, truncated: true };
}
