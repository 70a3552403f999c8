import { isUtf8 } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** One token of a byte-pair ranking, at the index of its rank: its text when its bytes are UTF-8, else its bytes. */
export type RankedToken = string | number[];

/**
 * The o200k ranks read from gpt-tokenizer's tiktoken file (`data/o200k_base.tiktoken`, one `<base64 bytes> <rank>`
 * per line), in the form the package's own `bpeRanks/o200k_base` module holds them. That module is 2.4 MB of array
 * literals: compiling it takes about 20 MB of V8 parser memory from `malloc`, which glibc kept after the tokenizer
 * worker exited, more with each worker (ADR 0011). Reading the data file leaves none of it.
 */
export function readO200kRanks(): RankedToken[] {
  const require = createRequire(import.meta.url);
  // Base64 and decimal digits only: latin1 reads it without decoding work.
  const lines = readFileSync(require.resolve('gpt-tokenizer/data/o200k_base.tiktoken'), 'latin1');
  const ranks: RankedToken[] = [];
  let start = 0;
  while (start < lines.length) {
    const space = lines.indexOf(' ', start);
    const newline = lines.indexOf('\n', space);
    const end = newline < 0 ? lines.length : newline;
    const bytes = Buffer.from(lines.slice(start, space), 'base64');
    ranks[Number(lines.slice(space + 1, end))] = isText(bytes) ? bytes.toString('utf8') : [...bytes];
    start = end + 1;
  }
  return ranks;
}

/**
 * Whether gpt-tokenizer keeps a token as text: valid UTF-8 that does not start with a byte order mark (decoding it
 * would drop the mark, so such tokens are kept as bytes).
 */
function isText(bytes: Buffer): boolean {
  return isUtf8(bytes) && !(bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf);
}
