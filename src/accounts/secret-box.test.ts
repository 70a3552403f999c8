import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSecretBox, isUnsaltedSealedSecret, resolveSecretPassphrase } from './secret-box.js';

const key = 'a-key-of-at-least-thirty-two-bytes-0123456789';

/** A value sealed the way gateways did before the salted format: AES-256-GCM under the bare SHA-256 of the key. */
function sealV1(keyMaterial: string, plainText: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', createHash('sha256').update(keyMaterial).digest(), nonce);
  const encrypted = Buffer.concat([cipher.update(plainText, 'utf8'), cipher.final()]);
  return ['v1', nonce.toString('base64'), cipher.getAuthTag().toString('base64'), encrypted.toString('base64')].join(
    ':',
  );
}

describe('secret box', () => {
  it('round-trips and never stores the plain text', () => {
    const box = createSecretBox(key);
    const sealed = box.encrypt('sk-upstream-secret');
    expect(sealed).not.toContain('sk-upstream-secret');
    expect(box.decrypt(sealed)).toBe('sk-upstream-secret');
    expect(box.encrypt('same')).not.toBe(box.encrypt('same'));
  });

  it('seals each value under its own salted key (v2: salt, nonce, tag, text)', () => {
    const box = createSecretBox(key);
    const [format, salt, nonce, tag, text] = box.encrypt('secret').split(':');
    expect(format).toBe('v2');
    expect(Buffer.from(salt!, 'base64')).toHaveLength(16);
    expect(Buffer.from(nonce!, 'base64')).toHaveLength(12);
    expect(Buffer.from(tag!, 'base64')).toHaveLength(16);
    expect(text).toBeTruthy();
    expect(box.encrypt('secret').split(':')[1]).not.toBe(salt);
    // The salt is part of the key: the same nonce, tag and text under another salt do not open.
    const otherSalt = randomBytes(16).toString('base64');
    expect(() => box.decrypt(['v2', otherSalt, nonce, tag, text].join(':'))).toThrow();
  });

  it('still opens values sealed before the salt (v1), which count as unsalted', () => {
    const sealed = sealV1(key, 'sk-from-an-older-gateway');
    expect(createSecretBox(key).decrypt(sealed)).toBe('sk-from-an-older-gateway');
    expect(isUnsaltedSealedSecret(sealed)).toBe(true);
    expect(isUnsaltedSealedSecret(createSecretBox(key).encrypt('x'))).toBe(false);
    expect(() => createSecretBox(`${key}-other`).decrypt(sealed)).toThrow();
  });

  it('refuses to open with another key or a tampered value', () => {
    const sealed = createSecretBox(key).encrypt('secret');
    expect(() => createSecretBox(`${key}-two`).decrypt(sealed)).toThrow();
    const parts = sealed.split(':');
    parts[4] = Buffer.from('tampered').toString('base64');
    expect(() => createSecretBox(key).decrypt(parts.join(':'))).toThrow();
    expect(() => createSecretBox(key).decrypt('v3:a:b:c:d')).toThrow('Unreadable sealed secret');
  });
});

describe('resolveSecretPassphrase', () => {
  it('generates an owner-only key file of 32 random bytes once and reuses it', () => {
    const dataDirectory = mkdtempSync(path.join(tmpdir(), 'gateway-secret-'));
    const first = resolveSecretPassphrase({ secretKey: undefined, dataDirectory });
    expect(Buffer.from(first, 'base64url')).toHaveLength(32);
    expect(resolveSecretPassphrase({ secretKey: undefined, dataDirectory })).toBe(first);
    expect(statSync(path.join(dataDirectory, 'secret.key')).mode & 0o777).toBe(0o600);
    expect(resolveSecretPassphrase({ secretKey: key, dataDirectory })).toBe(key);
  });

  it('refuses an empty or short key file and a short GATEWAY_SECRET_KEY, naming where the key came from', () => {
    const dataDirectory = mkdtempSync(path.join(tmpdir(), 'gateway-secret-'));
    const keyFile = path.join(dataDirectory, 'secret.key');
    writeFileSync(keyFile, '  \n');
    expect(() => resolveSecretPassphrase({ secretKey: undefined, dataDirectory })).toThrow(
      `The secret key in ${keyFile} is empty; it needs at least 32 bytes`,
    );
    writeFileSync(keyFile, `${'k'.repeat(31)}\n`);
    expect(() => resolveSecretPassphrase({ secretKey: undefined, dataDirectory })).toThrow(/is 31 bytes/);
    writeFileSync(keyFile, `${'k'.repeat(32)}\n`);
    expect(resolveSecretPassphrase({ secretKey: undefined, dataDirectory })).toBe('k'.repeat(32));
    expect(() => resolveSecretPassphrase({ secretKey: 'from-environment', dataDirectory })).toThrow(
      'The secret key in GATEWAY_SECRET_KEY is 16 bytes; it needs at least 32 bytes',
    );
  });
});
