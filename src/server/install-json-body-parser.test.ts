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
