import { describe, expect, it } from 'vitest';
import { english } from './en';
import { simplifiedChinese } from './zh-cn';
import { createConsoleI18n } from '../create-console-i18n';

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

/** English needs both plural forms; Chinese has only `_other`. */
const singularSuffix = '_one';
const pluralSuffix = '_other';

describe('the console catalogs', () => {
  const englishLeaves = leavesOf(english);
  const chineseLeaves = leavesOf(simplifiedChinese);

  it('have the same keys in English and Simplified Chinese, less the English singular forms', () => {
    const englishKeys = [...englishLeaves.keys()].filter((key) => !key.endsWith(singularSuffix));
    expect([...chineseLeaves.keys()].sort()).toEqual(englishKeys.sort());
  });

  it('fill every string in both languages, with the same placeholders', () => {
    for (const [key, text] of englishLeaves) {
      expect(typeof text === 'string' && text.length > 0, key).toBe(true);
      const chinese = chineseLeaves.get(key.endsWith(singularSuffix) ? key.slice(0, -singularSuffix.length) + pluralSuffix : key);
      expect(typeof chinese === 'string' && chinese.length > 0, key).toBe(true);
      expect(placeholdersOf(chinese), key).toEqual(placeholdersOf(text));
    }
  });

  it('say every count through plural keys: both forms in English, one in Chinese', () => {
    for (const [key, text] of englishLeaves) {
      if (!placeholdersOf(text).includes('count')) continue;
      expect(key.endsWith(singularSuffix) || key.endsWith(pluralSuffix), `${key} holds a count but is not a plural key`).toBe(true);
      const stem = key.replace(/_(one|other)$/, '');
      expect(englishLeaves.has(stem + singularSuffix) && englishLeaves.has(stem + pluralSuffix), stem).toBe(true);
    }
    for (const key of chineseLeaves.keys()) expect(key.endsWith(singularSuffix), `${key}: Chinese has one plural form`).toBe(false);
  });

  it('pick the singular for one and the plural otherwise', () => {
    const englishT = createConsoleI18n('en').t;
    const chineseT = createConsoleI18n('zh-CN').t;
    expect(englishT('usageLogs.shown', { count: 1 })).toBe('1 request shown');
    expect(englishT('usageLogs.shown', { count: 2 })).toBe('2 requests shown');
    expect(englishT('keys.form.groupOption', { name: 'vip', ratio: '×1', count: 1 })).toContain('· 1 model');
    expect(englishT('auditLog.shown', { count: 0 })).toBe('0 entries shown');
    expect(chineseT('usageLogs.shown', { count: 1 })).toBe('已显示 1 个请求');
  });
});
