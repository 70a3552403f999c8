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
    expect(setup.matches(token)).toBe(true);
    setup.close();
    expect(setup.claim(token)).toBeUndefined();
  });

  it('is never open on a database that has an administrator', () => {
    expect(FirstRunSetup.closed().isOpen).toBe(false);
  });
});
