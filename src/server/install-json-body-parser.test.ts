import { describe, expect, it } from 'vitest';
import { scanJsonStructure } from './install-json-body-parser.js';

const exceedsJsonDepth = (text: string, limit: number) => scanJsonStructure(text, limit).exceedsDepth;

describe('scanJsonStructure: depth', () => {
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

describe('scanJsonStructure: strings skipped whole', () => {
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

describe('scanJsonStructure: members of the outermost object', () => {
  it('counts members, not commas inside strings or nested values', () => {
    expect(scanJsonStructure('{}', 100).topLevelMembers).toBe(0);
    expect(scanJsonStructure(' { } ', 100).topLevelMembers).toBe(0);
    expect(scanJsonStructure('{"a":1}', 100).topLevelMembers).toBe(1);
    expect(scanJsonStructure('{"a":"x, y","b":[1,2,3],"c":{"d":1,"e":2}}', 100).topLevelMembers).toBe(3);
  });

  it('counts a key given twice twice, which JSON.parse folds into one', () => {
    const text = '{"model":"a","messages":[],"model":"b"}';
    expect(scanJsonStructure(text, 100).topLevelMembers).toBe(3);
    expect(Object.keys(JSON.parse(text) as object)).toHaveLength(2);
  });
});
