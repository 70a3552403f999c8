import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Encrypts and decrypts channel secrets with AES-256-GCM. */
export interface SecretBox {
  encrypt(plainText: string): string;
  decrypt(sealed: string): string;
}

/** The least key material (bytes of GATEWAY_SECRET_KEY or of `secret.key`) the gateway starts with. */
export const minimumSecretKeyBytes = 32;

/** Sealed before key derivation had a salt: the key was the bare SHA-256 of the key material (read, never written). */
const unsaltedFormat = 'v1';
/** Each value sealed with its own key, HKDF-SHA256 of the key material and a random salt stored with it. */
const saltedFormat = 'v2';
const saltBytes = 16;
const derivationInfo = Buffer.from('gateway secret box v2');

/**
 * Builds a secret box over key material (GATEWAY_SECRET_KEY or `secret.key`; start refuses less than
 * {@link minimumSecretKeyBytes}). Writes `v2:` values; still opens the `v1:` values older gateways wrote.
 */
export function createSecretBox(keyMaterial: string): SecretBox {
  const material = Buffer.from(keyMaterial, 'utf8');
  let unsaltedKey: Buffer | undefined;
  return {
    encrypt(plainText) {
      const salt = randomBytes(saltBytes);
      const nonce = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', deriveKey(material, salt), nonce);
      const encrypted = Buffer.concat([cipher.update(plainText, 'utf8'), cipher.final()]);
      const parts = [salt, nonce, cipher.getAuthTag(), encrypted].map((part) => part.toString('base64'));
      return [saltedFormat, ...parts].join(':');
    },
    decrypt(sealed) {
      const parts = sealed.split(':');
      if (parts[0] === saltedFormat && parts.length === 5) {
        const [, salt, nonce, tag, encrypted] = parts as [string, string, string, string, string];
        return open(deriveKey(material, Buffer.from(salt, 'base64')), nonce, tag, encrypted);
      }
      if (parts[0] === unsaltedFormat && parts.length === 4) {
        const [, nonce, tag, encrypted] = parts as [string, string, string, string];
        unsaltedKey ??= createHash('sha256').update(material).digest();
        return open(unsaltedKey, nonce, tag, encrypted);
      }
      throw new Error('Unreadable sealed secret');
    },
  };
}

/** True for a value sealed in the unsalted `v1` format, which the next write of that secret replaces. */
export function isUnsaltedSealedSecret(sealed: string): boolean {
  return sealed.startsWith(`${unsaltedFormat}:`);
}

function deriveKey(material: Buffer, salt: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', material, salt, derivationInfo, 32));
}

function open(key: Buffer, nonce: string, tag: string, encrypted: string): string {
  if (nonce === '' || tag === '') throw new Error('Unreadable sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64'));
  decipher.setAuthTag(Buffer.from(tag, 'base64'));
  return Buffer.concat([decipher.update(Buffer.from(encrypted, 'base64')), decipher.final()]).toString('utf8');
}

/**
 * The key material from GATEWAY_SECRET_KEY, or else from `<dataDirectory>/secret.key`, generated on first use
 * (32 random bytes, owner-only). Throws when it is shorter than {@link minimumSecretKeyBytes}: an empty or
 * short key would make the channel secrets easy to guess. Losing the key file makes stored channel secrets unreadable.
 */
export function resolveSecretPassphrase(options: { secretKey: string | undefined; dataDirectory: string }): string {
  if (options.secretKey !== undefined && options.secretKey !== '')
    return checkedKeyMaterial(options.secretKey, 'GATEWAY_SECRET_KEY');
  const keyFile = path.join(options.dataDirectory, 'secret.key');
  if (existsSync(keyFile)) return checkedKeyMaterial(readFileSync(keyFile, 'utf8').trim(), keyFile);
  mkdirSync(options.dataDirectory, { recursive: true, mode: 0o700 });
  const generated = randomBytes(32).toString('base64url');
  writeFileSync(keyFile, `${generated}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(keyFile, 0o600);
  return generated;
}

function checkedKeyMaterial(keyMaterial: string, source: string): string {
  const length = Buffer.byteLength(keyMaterial, 'utf8');
  if (length >= minimumSecretKeyBytes) return keyMaterial;
  throw new Error(
    `The secret key in ${source} is ${length === 0 ? 'empty' : `${length} bytes`}; it needs at least ` +
      `${minimumSecretKeyBytes} bytes of random key material (e.g. \`openssl rand -base64 32\`). ` +
      'Channel secrets sealed with a shorter key must be entered again after the key is replaced.',
  );
}

/** Where `resolveSecretPassphrase` takes the key from, for messages: `GATEWAY_SECRET_KEY` or the key file's path. */
export function secretKeySource(options: { secretKey: string | undefined; dataDirectory: string }): string {
  return options.secretKey ? 'GATEWAY_SECRET_KEY' : path.join(options.dataDirectory, 'secret.key');
}
