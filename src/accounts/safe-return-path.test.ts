import { describe, expect, it } from 'vitest';
import { safeReturnPath } from './safe-return-path.js';

describe('safeReturnPath', () => {
  it('keeps local paths with their query and fragment, in their resolved form', () => {
    expect(safeReturnPath('/console/keys?tab=2#new')).toBe('/console/keys?tab=2#new');
    expect(safeReturnPath('/sign-in?returnTo=%2Fkeys')).toBe('/sign-in?returnTo=%2Fkeys');
    expect(safeReturnPath('/console/../settings')).toBe('/settings');
    expect(safeReturnPath('/')).toBe('/');
  });

  it('turns anything that could leave the gateway into /', () => {
    for (const candidate of [
      undefined,
      '',
      'console',
      'https://evil.example/',
      '//evil.example',
      '/\\evil.example',
      '/\t/evil.example',
      '/\n/evil.example',
      'javascript:alert(1)',
      `/${'a'.repeat(3_000)}`,
    ]) {
      expect(safeReturnPath(candidate), String(candidate)).toBe('/');
    }
  });

  it('refuses paths that only after resolution or decoding start with two slashes or hold a backslash', () => {
    for (const candidate of [
      '/.//evil.example/phish',
      '/..//evil.example/phish',
      '/a/../..//evil.example',
      '/./\\evil.example',
      '/%2f%2fevil.example',
      '/%2F/evil.example',
      '/.%2f/evil.example',
      '/..%2f/evil.example',
      '/%2e%2e//evil.example',
      '/%5cevil.example',
      '/%252f%252fevil.example',
      '/%255c%255cevil.example',
      '/%09/evil.example',
      '/%00',
      '/%E0%A4%A',
      '/a\\b',
    ]) {
      expect(safeReturnPath(candidate), candidate).toBe('/');
    }
  });

  it('gives the same answer when its answer is checked again, as the callback does', () => {
    for (const candidate of ['/console/./keys', '/a/%2e%2e/b?x=1', '/x/%2f%2fy', '/.//evil.example']) {
      const once = safeReturnPath(candidate);
      expect(safeReturnPath(once), candidate).toBe(once);
    }
  });
});
