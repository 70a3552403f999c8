// The tokenizer worker builds gpt-tokenizer's o200k counter from the package's tiktoken data file instead of its
// 2.4 MB module of array literals, whose compilation left about 20 MB in glibc's arenas after every worker (ADR 0011).
// The counts must not move: bills of cut streams depend on them. A special token's name in an answer is counted as
// text, where the package's default throws.
import { countTokens } from 'gpt-tokenizer';
import packagedRanks from 'gpt-tokenizer/bpeRanks/o200k_base';
import { describe, expect, it } from 'vitest';
import { countTextTokens } from '../../src/billing/count-text-tokens.js';
import { readO200kRanks } from '../../src/billing/read-o200k-ranks.js';
import { TokenizerWorkerClient } from '../../src/billing/tokenizer-worker/tokenizer-worker-client.js';

const asText = { disallowedSpecial: new Set<string>() };

describe('o200k ranks read from the tiktoken file', () => {
  it('are exactly the ranks the package ships as a module, text and byte tokens alike', () => {
    const ranks = readO200kRanks();
    expect(ranks.length).toBe(packagedRanks.length);
    const differing = ranks.flatMap((token, rank) => (JSON.stringify(token) === JSON.stringify(packagedRanks[rank]) ? [] : [rank]));
    expect(differing).toEqual([]);
    // Both kinds are there: tokens that are not UTF-8 (or start with a byte order mark) are kept as bytes.
    expect(ranks.filter((token) => Array.isArray(token)).length).toBeGreaterThan(1_000);
    expect(ranks[5_574]).toEqual([0xef, 0xbb, 0xbf]);
  });

  it('count as the package counts', () => {
    const texts = [
      'Hello, world!',
      'Grüße aus Köln: naïve café, 日本語のテキスト, 한국어, עברית, العربية 🎉👩‍💻',
      '\uFEFFusing System;\n\nnamespace Example { }',
      '    def tokenize(self, text: str) -> list[int]:\n        return [ord(c) for c in text]\n',
      'lorem ipsum dolor sit amet '.repeat(200),
    ];
    for (const text of texts) expect(countTextTokens(text), text.slice(0, 20)).toBe(countTokens(text));
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
