import { describe, expect, it } from 'vitest';
import { safeLocalPath } from './safe-local-path';

describe('safeLocalPath', () => {
  it('keeps local paths and sends everything else to the dashboard', () => {
    expect(safeLocalPath('/admin/users?tab=1')).toBe('/admin/users?tab=1');
    for (const candidate of [undefined, '', 'https://evil.example/', '//evil.example', '/\\evil.example', '/sign-in?returnTo=/keys', 'keys']) {
      expect(safeLocalPath(candidate), String(candidate)).toBe('/dashboard');
    }
  });
});
