import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSecretBox, resolveSecretPassphrase } from './secret-box.js';

describe('secret box', () => {
  it('round-trips and never stores the plain text', () => {
    const box = createSecretBox('passphrase');
    const sealed = box.encrypt('sk-upstream-secret');
    expect(sealed).not.toContain('sk-upstream-secret');
    expect(box.decrypt(sealed)).toBe('sk-upstream-secret');
    expect(box.encrypt('same')).not.toBe(box.encrypt('same'));
  });

  it('refuses to open with another key or a tampered value', () => {
    const sealed = createSecretBox('one').encrypt('secret');
    expect(() => createSecretBox('two').decrypt(sealed)).toThrow();
    const parts = sealed.split(':');
    parts[3] = Buffer.from('tampered').toString('base64');
    expect(() => createSecretBox('one').decrypt(parts.join(':'))).toThrow();
  });

  it('generates an owner-only key file once and reuses it', () => {
    const dataDirectory = mkdtempSync(path.join(tmpdir(), 'gateway-secret-'));
    const first = resolveSecretPassphrase({ secretKey: undefined, dataDirectory });
    expect(resolveSecretPassphrase({ secretKey: undefined, dataDirectory })).toBe(first);
    expect(statSync(path.join(dataDirectory, 'secret.key')).mode & 0o777).toBe(0o600);
    expect(resolveSecretPassphrase({ secretKey: 'from-environment', dataDirectory })).toBe('from-environment');
  });
});
