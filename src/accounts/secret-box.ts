import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Encrypts and decrypts channel secrets with AES-256-GCM. */
export interface SecretBox {
  encrypt(plainText: string): string;
  decrypt(sealed: string): string;
}

const formatPrefix = 'v1';

/** Builds a secret box from a passphrase of any length (hashed to a 256-bit key). */
export function createSecretBox(passphrase: string): SecretBox {
  const key = createHash('sha256').update(passphrase).digest();
  return {
    encrypt(plainText) {
      const nonce = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      const encrypted = Buffer.concat([cipher.update(plainText, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [formatPrefix, nonce.toString('base64'), tag.toString('base64'), encrypted.toString('base64')].join(':');
    },
    decrypt(sealed) {
      const [prefix, nonce, tag, encrypted] = sealed.split(':');
      if (prefix !== formatPrefix || !nonce || !tag || encrypted === undefined)
        throw new Error('Unreadable sealed secret');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64'));
      decipher.setAuthTag(Buffer.from(tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(encrypted, 'base64')), decipher.final()]).toString('utf8');
    },
  };
}

/**
 * The passphrase from GATEWAY_SECRET_KEY, or else from `<dataDirectory>/secret.key`, generated on first use
 * with owner-only permissions. Losing that file makes stored channel secrets unreadable.
 */
export function resolveSecretPassphrase(options: { secretKey: string | undefined; dataDirectory: string }): string {
  if (options.secretKey) return options.secretKey;
  const keyFile = path.join(options.dataDirectory, 'secret.key');
  if (existsSync(keyFile)) return readFileSync(keyFile, 'utf8').trim();
  mkdirSync(options.dataDirectory, { recursive: true });
  const generated = randomBytes(32).toString('base64url');
  writeFileSync(keyFile, `${generated}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(keyFile, 0o600);
  return generated;
}
