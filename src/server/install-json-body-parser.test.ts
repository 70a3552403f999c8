import { describe, expect, it } from 'vitest';
import { exceedsJsonDepth } from './install-json-body-parser.js';

describe('exceedsJsonDepth', () => {
  it('counts nested arrays and objects', () => {
    expect(exceedsJsonDepth(`${'['.repeat(101)}${']'.repeat(101)}`, 100)).toBe(true);
    expect(exceedsJsonDepth(`${'['.repeat(100)}${']'.repeat(100)}`, 100)).toBe(false);
    expect(exceedsJsonDepth(`${'{"a":'.repeat(101)}1${'}'.repeat(101)}`, 100)).toBe(true);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(exceedsJsonDepth(JSON.stringify({ text: '['.repeat(500) }), 100)).toBe(false);
    expect(exceedsJsonDepth(JSON.stringify({ text: `\\"${'{'.repeat(500)}` }), 100)).toBe(false);
  });
});

describe('exceedsJsonDepth: strings skipped whole', () => {
  it('tells escaped quotes from quotes after escaped backslashes', () => {
    // `"\\\\"` is a string holding one backslash: the quote after it closes the string, so the brackets count.
    expect(exceedsJsonDepth(`["\\\\",${'['.repeat(101)}${']'.repeat(101)}]`, 100)).toBe(true);
    // `"\\""` keeps going: the escaped quote does not close it, so the brackets inside are text.
    expect(exceedsJsonDepth(`["\\"${'['.repeat(200)}"]`, 100)).toBe(false);
  });

  it('treats an unterminated string as text to the end', () => {
    expect(exceedsJsonDepth(`["${'['.repeat(200)}`, 100)).toBe(false);
  });
});
