import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** Slots of the open-addressing table: a power of two, about 2.6 × the 199,998 ranks, so probes stay short. */
const slotCount = 1 << 19;
const fnvOffsetBasis = 0x811c9dc5;
const fnvPrime = 0x01000193;

/**
 * The o200k byte-pair ranks in three typed arrays, about 4.4 MB outside V8's heap: every token's bytes end to end, where
 * each rank's bytes start, and a hash table from bytes to rank. gpt-tokenizer's own encoder keeps the same ranks as
 * 200,000 strings, a `Map` and byte arrays: about 19 MB of objects for the collector to trace, and 38–43 MB of RSS
 * with its worker (ADR 0011).
 */
export class O200kRankTable {
  /** every token's bytes, in rank order */
  readonly #tokenBytes: Uint8Array;
  /** `#tokenStarts[rank]` is where that rank's bytes start in `#tokenBytes`; one more entry marks the end */
  readonly #tokenStarts: Uint32Array;
  /** rank + 1 of the token hashed to each slot (linear probing); 0 for an empty slot */
  readonly #slots: Int32Array;

  private constructor(tokenBytes: Uint8Array, tokenStarts: Uint32Array) {
    this.#tokenBytes = tokenBytes;
    this.#tokenStarts = tokenStarts;
    this.#slots = new Int32Array(slotCount);
    for (let rank = 0; rank < this.size; rank++) {
      let slot = hashBytes(tokenBytes, tokenStarts[rank]!, tokenStarts[rank + 1]!) & (slotCount - 1);
      while (this.#slots[slot] !== 0) slot = (slot + 1) & (slotCount - 1);
      this.#slots[slot] = rank + 1;
    }
  }

  /**
   * Reads gpt-tokenizer's tiktoken file (`data/o200k_base.tiktoken`: one `<base64 bytes> <rank>` line per rank, in
   * rank order), decoding each token straight into one buffer.
   */
  static read(): O200kRankTable {
    const require = createRequire(import.meta.url);
    // Base64 and decimal digits only: latin1 reads it without decoding work.
    const lines = readFileSync(require.resolve('gpt-tokenizer/data/o200k_base.tiktoken'), 'latin1');
    // Base64 is longer than the bytes it encodes, so the file's length bounds the tokens' bytes.
    const bytes = Buffer.alloc(lines.length);
    const starts: number[] = [0];
    let written = 0;
    let start = 0;
    while (start < lines.length) {
      const space = lines.indexOf(' ', start);
      const newline = lines.indexOf('\n', space);
      const end = newline < 0 ? lines.length : newline;
      const rank = Number(lines.slice(space + 1, end));
      if (rank !== starts.length - 1) throw new Error(`o200k_base.tiktoken: rank ${rank} where ${starts.length - 1} was expected`);
      written += bytes.write(lines.slice(start, space), written, 'base64');
      starts.push(written);
      start = end + 1;
    }
    // A copy of the used part, so the file-sized buffer is freed.
    return new O200kRankTable(Uint8Array.prototype.slice.call(bytes, 0, written), Uint32Array.from(starts));
  }

  /** How many ranks the table holds (199,998 for o200k). */
  get size(): number {
    return this.#tokenStarts.length - 1;
  }

  /** The rank of the token whose bytes are `bytes[start, end)`, or -1 when no token has exactly those bytes. */
  rankOf(bytes: Uint8Array, start: number, end: number): number {
    const length = end - start;
    let slot = hashBytes(bytes, start, end) & (slotCount - 1);
    for (let entry = this.#slots[slot]!; entry !== 0; entry = this.#slots[slot]!) {
      const rank = entry - 1;
      const tokenStart = this.#tokenStarts[rank]!;
      if (this.#tokenStarts[rank + 1]! - tokenStart === length && sameBytes(this.#tokenBytes, tokenStart, bytes, start, length)) return rank;
      slot = (slot + 1) & (slotCount - 1);
    }
    return -1;
  }

  /** The bytes of the token of `rank` (a view into the table, not a copy). */
  bytesOf(rank: number): Uint8Array {
    return this.#tokenBytes.subarray(this.#tokenStarts[rank], this.#tokenStarts[rank + 1]);
  }
}

/** 32-bit FNV-1a of `bytes[start, end)`. */
function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let hash = fnvOffsetBasis;
  for (let index = start; index < end; index++) hash = Math.imul(hash ^ bytes[index]!, fnvPrime);
  return hash >>> 0;
}

function sameBytes(left: Uint8Array, leftStart: number, right: Uint8Array, rightStart: number, length: number): boolean {
  for (let offset = 0; offset < length; offset++) if (left[leftStart + offset] !== right[rightStart + offset]) return false;
  return true;
}
