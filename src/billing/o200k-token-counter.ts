import type { O200kRankTable } from './o200k-rank-table.js';

/** Fields of one candidate merge in the heap: its rank, its left and right parts, and their versions when it was found. */
const entryFields = 5;

/**
 * Counts o200k tokens as tiktoken's `encode_ordinary` does: the text is split with the o200k pattern (`splitPattern`,
 * gpt-tokenizer's), each piece is one token when its UTF-8 bytes are one, and otherwise its bytes are merged pair by
 * pair, the lowest rank first and the leftmost among equals, until no adjacent pair is a token. The merges come from
 * a heap, so a long piece (a paragraph of Chinese has no spaces to split on) costs n log n instead of tiktoken's n².
 * Special tokens' names are text here. Not reentrant: it reuses its working arrays between calls.
 */
export class O200kTokenCounter {
  readonly #ranks: O200kRankTable;
  readonly #splitPattern: RegExp;
  readonly #encoder = new TextEncoder();
  /** the UTF-8 bytes of the piece being counted */
  #pieceBytes = new Uint8Array(1024);
  /** for each byte position that starts a part: where the next part starts (the piece's length after the last) */
  #nextPart = new Int32Array(1024);
  /** for each byte position that starts a part: where the part before starts, or -1 */
  #previousPart = new Int32Array(1024);
  /** for each byte position: bumped whenever the part starting there grows or is merged away */
  #partVersion = new Int32Array(1024);
  /** a binary min-heap of candidate merges, ordered by rank and then position, `entryFields` numbers each */
  #heap = new Int32Array(1024 * entryFields);
  #heapLength = 0;

  /** `splitPattern` is the o200k pre-tokenization pattern with the `g` and `u` flags. */
  constructor(ranks: O200kRankTable, splitPattern: RegExp) {
    this.#ranks = ranks;
    this.#splitPattern = new RegExp(splitPattern.source, splitPattern.flags);
  }

  /** The number of o200k tokens in `text`. */
  count(text: string): number {
    const pattern = this.#splitPattern;
    pattern.lastIndex = 0;
    let tokens = 0;
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text))
      tokens += this.#countPiece(match[0]);
    return tokens;
  }

  #countPiece(piece: string): number {
    if (this.#pieceBytes.length < piece.length * 3) this.#growFor(piece.length * 3);
    const length = this.#encoder.encodeInto(piece, this.#pieceBytes).written;
    // Every single byte is a token; a piece that is a token needs no merging.
    if (length === 1 || this.#ranks.rankOf(this.#pieceBytes, 0, length) >= 0) return 1;
    return this.#countMergedParts(length);
  }

  /** Merges the piece's bytes, `#pieceBytes[0, length)`, and returns how many parts are left. */
  #countMergedParts(length: number): number {
    const bytes = this.#pieceBytes;
    const next = this.#nextPart;
    const previous = this.#previousPart;
    const version = this.#partVersion;
    this.#heapLength = 0;
    for (let position = 0; position < length; position++) {
      next[position] = position + 1;
      previous[position] = position - 1;
      version[position] = 0;
    }
    for (let position = 0; position + 1 < length; position++) {
      const rank = this.#ranks.rankOf(bytes, position, position + 2);
      if (rank >= 0) this.#push(rank, position, position + 1, 0, 0);
    }
    let parts = length;
    while (this.#heapLength > 0) {
      // Read on every turn: a push below may have replaced the heap with a larger one.
      const heap = this.#heap;
      const left = heap[1]!;
      const right = heap[2]!;
      const current = version[left] === heap[3] && version[right] === heap[4];
      this.#popMinimum();
      // A candidate whose parts changed since it was found is stale; their new pairs were pushed when they changed.
      if (!current) continue;
      const afterRight = next[right]!;
      next[left] = afterRight;
      if (afterRight < length) previous[afterRight] = left;
      version[left]! += 1;
      version[right]! += 1;
      parts -= 1;
      const beforeLeft = previous[left]!;
      if (beforeLeft >= 0) {
        const rank = this.#ranks.rankOf(bytes, beforeLeft, afterRight);
        if (rank >= 0) this.#push(rank, beforeLeft, left, version[beforeLeft]!, version[left]!);
      }
      if (afterRight < length) {
        const rank = this.#ranks.rankOf(bytes, left, next[afterRight]!);
        if (rank >= 0) this.#push(rank, left, afterRight, version[left]!, version[afterRight]!);
      }
    }
    return parts;
  }

  #push(rank: number, left: number, right: number, leftVersion: number, rightVersion: number): void {
    if ((this.#heapLength + 1) * entryFields > this.#heap.length) {
      const grown = new Int32Array(this.#heap.length * 2);
      grown.set(this.#heap);
      this.#heap = grown;
    }
    const heap = this.#heap;
    let index = this.#heapLength++;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!precedes(rank, left, heap[parent * entryFields]!, heap[parent * entryFields + 1]!)) break;
      heap.copyWithin(index * entryFields, parent * entryFields, parent * entryFields + entryFields);
      index = parent;
    }
    const at = index * entryFields;
    heap[at] = rank;
    heap[at + 1] = left;
    heap[at + 2] = right;
    heap[at + 3] = leftVersion;
    heap[at + 4] = rightVersion;
  }

  #popMinimum(): void {
    const heap = this.#heap;
    const last = --this.#heapLength;
    if (last === 0) return;
    const rank = heap[last * entryFields]!;
    const left = heap[last * entryFields + 1]!;
    let index = 0;
    for (;;) {
      let child = index * 2 + 1;
      if (child >= last) break;
      if (
        child + 1 < last &&
        precedes(
          heap[(child + 1) * entryFields]!,
          heap[(child + 1) * entryFields + 1]!,
          heap[child * entryFields]!,
          heap[child * entryFields + 1]!,
        )
      )
        child += 1;
      if (!precedes(heap[child * entryFields]!, heap[child * entryFields + 1]!, rank, left)) break;
      heap.copyWithin(index * entryFields, child * entryFields, child * entryFields + entryFields);
      index = child;
    }
    heap.copyWithin(index * entryFields, last * entryFields, last * entryFields + entryFields);
  }

  #growFor(bytes: number): void {
    this.#pieceBytes = new Uint8Array(bytes);
    this.#nextPart = new Int32Array(bytes);
    this.#previousPart = new Int32Array(bytes);
    this.#partVersion = new Int32Array(bytes);
  }
}

/** Whether a candidate merge (rank, position) comes before another: lower rank first, then further left. */
function precedes(rank: number, position: number, otherRank: number, otherPosition: number): boolean {
  return rank < otherRank || (rank === otherRank && position < otherPosition);
}
