import { createHash, randomBytes } from 'node:crypto';

/** Prefix of admin tokens made by `gateway admin token`, so they are recognisable in logs and secret scanners. */
export const adminTokenPrefix = 'gwadm-';
/** Prefix of console session tokens. */
export const sessionTokenPrefix = 'gwses-';

/** A new random token with the given prefix: 32 random bytes, base64url. */
export function generateConsoleToken(prefix: string): string {
  return prefix + randomBytes(32).toString('base64url');
}

/** Lowercase hex SHA-256 of a token: what the database keeps instead of the token. */
export function hashConsoleToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
