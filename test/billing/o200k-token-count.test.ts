// The tokenizer worker counts with its own o200k counter: the package's ranks in typed arrays, about 4.3 MB outside
// V8's heap, where gpt-tokenizer's encoder keeps them as 19 MB of strings and maps (ADR 0011). The counts must be the
// package's: bills of cut streams depend on them. A special token's name in an answer is counted as text, where the
// package's default throws.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { countTokens } from 'gpt-tokenizer';
import packagedRanks from 'gpt-tokenizer/bpeRanks/o200k_base';
import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';
import { afterAll, describe, expect, it } from 'vitest';
import { countTextTokens } from '../../src/billing/count-text-tokens.js';
import { O200kRankTable } from '../../src/billing/o200k-rank-table.js';
import { O200kTokenCounter } from '../../src/billing/o200k-token-counter.js';
import { TokenizerWorkerClient } from '../../src/billing/tokenizer-worker/tokenizer-worker-client.js';

const asText = { disallowedSpecial: new Set<string>() };

/** Texts drawn from a fixed seed over letters of several scripts, digits, spaces, punctuation and emoji. */
function randomTexts(count: number): string[] {
  let seed = 42;
  const random = () => (seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32;
  const characters = [
    ...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789     \n\n\r\t.,;:!?\'"()[]{}<>-_=+*/\\|@#$%^&~`',
    ...'éüßøñçà日本語中文한국어עבריתالعربيةрусскийΕλληνικά🎉👩‍💻😀🚀€£¥°±²³',
  ];
  return Array.from({ length: count }, () => {
    let text = '';
    const length = 1 + Math.floor(random() * 300);
    for (let index = 0; index < length; index++) text += characters[Math.floor(random() * characters.length)];
    return text;
  });
}

describe('the o200k rank table', () => {
  it('holds exactly the ranks the package ships as a module, text and byte tokens alike, and finds each by its bytes', () => {
    const table = O200kRankTable.read();
    expect(table.size).toBe(packagedRanks.length);
    const differing = packagedRanks.flatMap((token, rank) => {
      const bytes = typeof token === 'string' ? Buffer.from(token, 'utf8') : Uint8Array.from(token);
      const same = Buffer.compare(table.bytesOf(rank), bytes) === 0 && table.rankOf(bytes, 0, bytes.length) === rank;
      return same ? [] : [rank];
    });
    expect(differing).toEqual([]);
    // A byte token: the UTF-8 byte order mark.
    expect(table.rankOf(Uint8Array.of(0xef, 0xbb, 0xbf), 0, 3)).toBe(5_574);
    // Bytes of no token, and a token found in the middle of a longer array.
    expect(table.rankOf(Buffer.from('xq\u{1F680}zzv'), 0, 9)).toBe(-1);
    expect(table.rankOf(Buffer.from('__Hello__'), 2, 7)).toBe(table.rankOf(Buffer.from('Hello'), 0, 5));
  });
});

describe('a tiktoken file read into a rank table', () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'rank-table-'));
  const fileWith = (name: string, text: string): string => {
    const file = path.join(folder, name);
    writeFileSync(file, text);
    return file;
  };

  it('reads a last line without a newline, and tokens of one, two and three bytes under padded base64', () => {
    const tokens = ['a', 'bc', 'def', '\u00e9t\u00e9'];
    const lines = tokens.map((token, rank) => `${Buffer.from(token).toString('base64')} ${rank}`);
    const table = O200kRankTable.read(fileWith('no-final-newline.tiktoken', lines.join('\n')));
    expect(table.size).toBe(tokens.length);
    tokens.forEach((token, rank) => expect(Buffer.from(table.bytesOf(rank)).toString()).toBe(token));
    expect(table.rankOf(Buffer.from('\u00e9t\u00e9'), 0, 5)).toBe(3);
  });

  it('refuses a file whose ranks are out of order, or a line that is not base64', () => {
    expect(() => O200kRankTable.read(fileWith('out-of-order.tiktoken', 'YQ== 0\nYg== 2\n'))).toThrow(
      /rank 2 where 1 was expected/,
    );
    expect(() => O200kRankTable.read(fileWith('not-base64.tiktoken', 'Y*== 0\n'))).toThrow(/is not a base64 digit/);
  });

  afterAll(() => rmSync(folder, { recursive: true, force: true }));
});

describe('o200k token counts', () => {
  it("are the package's counts for prose, code, many scripts and emoji", () => {
    const texts = [
      'Hello, world!',
      'Grüße aus Köln: naïve café, 日本語のテキスト, 한국어, עברית, العربية 🎉👩‍💻',
      '    def tokenize(self, text: str) -> list[int]:\n        return [ord(c) for c in text]\n',
      'lorem ipsum dolor sit amet '.repeat(200),
      "It's what they'd've said, isn't it? DON'T SHOUT. 1234567 apples; 3.14159.",
      ...randomTexts(2_000),
    ];
    const differing = texts.filter((text) => countTextTokens(text) !== countTokens(text, asText));
    expect(differing).toEqual([]);
  });

  it("are the package's counts for long pieces without spaces, which are merged through a heap", () => {
    // A paragraph of Chinese is one piece of the split pattern; so is a run of one letter or of spaces.
    const texts = [
      '中文文本没有空格所以整段是一个片段'.repeat(100),
      'a'.repeat(3_000),
      ' '.repeat(2_000) + 'x',
      '👩‍💻'.repeat(300),
    ];
    for (const text of texts) expect(countTextTokens(text), text.slice(0, 10)).toBe(countTokens(text, asText));
  });

  it("are the package's counts when a counter's merge heap must grow in the middle of a piece", () => {
    // A fresh counter's heap holds 1,024 candidate merges. "abab…" starts with a candidate at every byte, and each merge
    // adds two, so the heap grows while the piece is merged; a counter that kept reading the heap it had before
    // counted 372 tokens for 700 characters of it, where there are 175.
    const table = O200kRankTable.read();
    const texts = ['ab'.repeat(350), 'ab'.repeat(1_000), '中文'.repeat(700), 'a'.repeat(5_000), '—'.repeat(2_100)];
    const differing = texts.filter(
      (text) => new O200kTokenCounter(table, O200K_TOKEN_SPLIT_REGEX).count(text) !== countTokens(text, asText),
    );
    expect(differing).toEqual([]);
  });

  it('count a piece that starts with a byte order mark as tiktoken does: one token when its bytes are one', () => {
    // gpt-tokenizer looks such tokens up as text and never finds them (it keeps them as bytes), so it splits them.
    const table = O200kRankTable.read();
    for (const piece of ['\uFEFF', '\uFEFFusing']) {
      const bytes = Buffer.from(piece, 'utf8');
      expect(table.rankOf(bytes, 0, bytes.length)).toBeGreaterThanOrEqual(0);
      expect(countTextTokens(piece)).toBe(1);
      expect(countTokens(piece, asText)).toBeGreaterThan(1);
    }
    // The rest of a source file is counted as the package counts it.
    expect(countTextTokens('\uFEFFusing System;\n\nnamespace Example { }')).toBe(
      1 + countTokens(' System;\n\nnamespace Example { }', asText),
    );
  });

  it("count a special token's name in an answer as text, in the worker, without failing it", async () => {
    const answer = 'A model may write <|endoftext|> or <|im_start|> in its answer.';
    expect(() => countTokens(answer)).toThrow(/Disallowed special token/);
    const expected = countTokens(answer, asText);
    expect(countTextTokens(answer)).toBe(expected);
    const warnings: string[] = [];
    const client = new TokenizerWorkerClient({ logger: { warn: (_details, message) => warnings.push(message) } });
    try {
      expect(await client.count([answer])).toEqual([expected]);
      expect(client.startedWorkers).toBe(1);
      expect(warnings).toEqual([]);
    } finally {
      await client.close();
    }
  });
});
