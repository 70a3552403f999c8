import { describe, expect, it } from 'vitest';
import { safeReturnPath } from './safe-return-path.js';

describe('safeReturnPath', () => {
  it('keeps local paths with their query and fragment', () => {
    expect(safeReturnPath('/console/keys?tab=2#new')).toBe('/console/keys?tab=2#new');
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
});
