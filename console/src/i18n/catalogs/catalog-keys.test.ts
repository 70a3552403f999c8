import { describe, expect, it } from 'vitest';
import { english } from './en';
import { simplifiedChinese } from './zh-cn';

/** Every leaf key of a catalog as a dotted path, with its string. */
function leavesOf(catalog: object, prefix = ''): Map<string, unknown> {
  const leaves = new Map<string, unknown>();
  for (const [key, value] of Object.entries(catalog)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value !== null && typeof value === 'object') for (const [leaf, text] of leavesOf(value, path)) leaves.set(leaf, text);
    else leaves.set(path, value);
  }
  return leaves;
}

/** The `{{name}}` placeholders of a string, sorted. */
function placeholdersOf(text: unknown): string[] {
  return [...String(text).matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1] ?? '').sort();
}

describe('the console catalogs', () => {
  const englishLeaves = leavesOf(english);
  const chineseLeaves = leavesOf(simplifiedChinese);

  it('have the same keys in English and Simplified Chinese', () => {
    expect([...chineseLeaves.keys()].sort()).toEqual([...englishLeaves.keys()].sort());
  });

  it('fill every string in both languages, with the same placeholders', () => {
    for (const [key, text] of englishLeaves) {
      const chinese = chineseLeaves.get(key);
      expect(typeof text === 'string' && text.length > 0, key).toBe(true);
      expect(typeof chinese === 'string' && chinese.length > 0, key).toBe(true);
      expect(placeholdersOf(chinese), key).toEqual(placeholdersOf(text));
    }
  });
});
