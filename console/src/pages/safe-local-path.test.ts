import { describe, expect, it } from 'vitest';
import { safeLocalPath } from './safe-local-path';

describe('safeLocalPath', () => {
  it('keeps local paths and sends everything else to the dashboard', () => {
    expect(safeLocalPath('/admin/users?tab=1')).toBe('/admin/users?tab=1');
    expect(safeLocalPath('/keys?returnTo=%2Fusage#new')).toBe('/keys?returnTo=%2Fusage#new');
    for (const candidate of [undefined, '', 'https://evil.example/', '//evil.example', '/\\evil.example', '/sign-in?returnTo=/keys', 'keys']) {
      expect(safeLocalPath(candidate), String(candidate)).toBe('/dashboard');
    }
  });

  // The same forms the gateway's own check refuses (src/accounts/safe-return-path.test.ts).
  it('refuses paths that resolve or decode to another origin', () => {
    for (const candidate of [
      '/.//evil.example/phish',
      '/..//evil.example/phish',
      '/./\\evil.example',
      '/%2f%2fevil.example',
      '/%2F/evil.example',
      '/.%2f/evil.example',
      '/..%2f/evil.example',
      '/%5cevil.example',
      '/%255c%255cevil.example',
      '/%252f%252fevil.example',
      '/\t/evil.example',
      '/%09/evil.example',
      '/%00',
      '/%E0%A4%A',
      '/a\\b',
      '/./sign-in',
    ]) {
      expect(safeLocalPath(candidate), candidate).toBe('/dashboard');
    }
  });
});
