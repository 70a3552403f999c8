import { describe, expect, it } from 'vitest';
import { FirstRunSetup } from './first-run-setup.js';

describe('FirstRunSetup', () => {
  it('lets exactly one caller claim the right token, and can reopen after a failed creation', () => {
    const { setup, token } = FirstRunSetup.open();
    expect(token.length).toBeGreaterThanOrEqual(40);
    expect(setup.claim('wrong')).toBeUndefined();
    expect(setup.isOpen).toBe(true);
    const reopen = setup.claim(token);
    expect(reopen).toBeDefined();
    expect(setup.isOpen).toBe(false);
    expect(setup.claim(token)).toBeUndefined();
    reopen?.();
    expect(setup.check(token)).toBe('matches');
    expect(setup.check('wrong')).toBe('wrong-token');
    setup.close();
    expect(setup.claim(token)).toBeUndefined();
  });

  it('tells a caller whose right token was claimed meanwhile that setup is closed, not that the token is wrong', () => {
    const { setup, token } = FirstRunSetup.open();
    setup.claim(token);
    expect(setup.check(token)).toBe('closed');
    expect(setup.check('wrong')).toBe('closed');
  });

  it('is never open on a database that has an administrator', () => {
    expect(FirstRunSetup.closed().isOpen).toBe(false);
  });
});
