import { closeSync, openSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';

/** Slots of the open-addressing table: a power of two, about 2.6 × the 199,998 ranks, so probes stay short. */
const slotCount = 1 << 19;
const fnvOffsetBasis = 0x811c9dc5;
const fnvPrime = 0x01000193;

/**
 * The o200k byte-pair ranks in three typed arrays, about 4.3 MB outside V8's heap: every token's bytes end to end, where
 * each rank's bytes start, and a hash table from bytes to rank. gpt-tokenizer's own encoder keeps the same ranks as
 * 200,000 strings, a `Map` and byte arrays: about 19 MB of objects for the collector to trace, and a worker built on
 * it held 44–59 MiB of RSS against 24–32 with this table (ADR 0011).
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
   * Reads a tiktoken file (one `<base64 bytes> <rank>` line per rank, in rank order; by default gpt-tokenizer's
   * `data/o200k_base.tiktoken`), decoding each token straight into one buffer. Throws on a rank out of order.
   */
  static read(path = createRequire(import.meta.url).resolve('gpt-tokenizer/data/o200k_base.tiktoken')): O200kRankTable {
    // Read twice, a chunk at a time, and decoded byte by byte into arrays of the exact size: the worker allocates
    // little once started, so a file-sized buffer or a string per line could stay resident for its whole life.
    const lineCount = forEachLine(path, () => {});
    const starts = new Uint32Array(lineCount + 1);
    forEachLine(path, (chunk, start, space, end, line) => {
      const rank = parseDecimal(chunk, space + 1, end);
      if (rank !== line) throw new Error(`o200k_base.tiktoken: rank ${rank} where ${line} was expected`);
      starts[line + 1] = starts[line]! + decodedBase64Length(chunk, start, space);
    });
    const bytes = new Uint8Array(starts[lineCount]!);
    forEachLine(path, (chunk, start, space, _end, line) => decodeBase64(chunk, start, space, bytes, starts[line]!));
    return new O200kRankTable(bytes, starts);
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
      if (
        this.#tokenStarts[rank + 1]! - tokenStart === length &&
        sameBytes(this.#tokenBytes, tokenStart, bytes, start, length)
      )
        return rank;
      slot = (slot + 1) & (slotCount - 1);
    }
    return -1;
  }

  /** The bytes of the token of `rank` (a view into the table, not a copy). */
  bytesOf(rank: number): Uint8Array {
    return this.#tokenBytes.subarray(this.#tokenStarts[rank], this.#tokenStarts[rank + 1]);
  }
}

const spaceByte = 0x20;
const newlineByte = 0x0a;
const equalsByte = 0x3d;

/** Bytes read at a time: far more than a line (a token of 128 bytes is 172 digits of base64). */
const readChunkBytes = 1 << 16;

/**
 * Calls `visit` for each `<base64> <rank>` line of a tiktoken file with the chunk that holds it, where the line starts,
 * where its space is and where it ends in that chunk, and its number; returns the number of lines.
 */
function forEachLine(
  path: string,
  visit: (chunk: Uint8Array, start: number, space: number, end: number, line: number) => void,
): number {
  const chunk = new Uint8Array(readChunkBytes);
  const descriptor = openSync(path, 'r');
  let line = 0;
  try {
    let filled = 0;
    for (;;) {
      const read = readSync(descriptor, chunk, filled, chunk.length - filled, null);
      filled += read;
      const text = chunk.subarray(0, filled);
      let start = 0;
      for (let newline = text.indexOf(newlineByte); newline >= 0; newline = text.indexOf(newlineByte, start)) {
        visit(chunk, start, text.indexOf(spaceByte, start), newline, line++);
        start = newline + 1;
      }
      if (read === 0) {
        // A last line without a newline.
        if (start < filled) visit(chunk, start, text.indexOf(spaceByte, start), filled, line++);
        return line;
      }
      if (start === 0 && filled === chunk.length)
        throw new Error(`${path}: a line longer than ${readChunkBytes} bytes`);
      chunk.copyWithin(0, start, filled);
      filled -= start;
    }
  } finally {
    closeSync(descriptor);
  }
}

/** Bytes encoded by the padded base64 text `file[start, end)`. */
function decodedBase64Length(file: Uint8Array, start: number, end: number): number {
  const padding = (file[end - 1] === equalsByte ? 1 : 0) + (file[end - 2] === equalsByte ? 1 : 0);
  return ((end - start) / 4) * 3 - padding;
}

/** The value of each base64 digit's character code; -1 for other characters. */
const base64Values = Int8Array.from({ length: 128 }, (_, code) =>
  'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.indexOf(String.fromCharCode(code)),
);

/**
 * Decodes the padded base64 text `file[start, end)` into `target` from `offset`. Node's `Buffer` decodes base64 from
 * strings only, and a string per line is the garbage this loader avoids.
 */
function decodeBase64(file: Uint8Array, start: number, end: number, target: Uint8Array, offset: number): void {
  let bits = 0;
  let bitCount = 0;
  for (let index = start; index < end && file[index] !== equalsByte; index++) {
    const value = base64Values[file[index]!] ?? -1;
    if (value < 0) throw new Error(`o200k_base.tiktoken: ${String.fromCharCode(file[index]!)} is not a base64 digit`);
    bits = ((bits << 6) | value) & 0xffffff;
    bitCount += 6;
    if (bitCount >= 8) {
      bitCount -= 8;
      target[offset++] = (bits >> bitCount) & 0xff;
    }
  }
}

/** The decimal number written as ASCII digits in `file[start, end)`; NaN when there is none or another character. */
function parseDecimal(file: Uint8Array, start: number, end: number): number {
  let value = start < end ? 0 : Number.NaN;
  for (let index = start; index < end; index++) {
    const digit = file[index]! - 0x30;
    if (digit < 0 || digit > 9) return Number.NaN;
    value = value * 10 + digit;
  }
  return value;
}

/** 32-bit FNV-1a of `bytes[start, end)`. */
function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let hash = fnvOffsetBasis;
  for (let index = start; index < end; index++) hash = Math.imul(hash ^ bytes[index]!, fnvPrime);
  return hash >>> 0;
}

function sameBytes(
  left: Uint8Array,
  leftStart: number,
  right: Uint8Array,
  rightStart: number,
  length: number,
): boolean {
  for (let offset = 0; offset < length; offset++)
    if (left[leftStart + offset] !== right[rightStart + offset]) return false;
  return true;
}
