import { createHash, randomBytes } from 'node:crypto';

/** Every gateway key starts with this, so leaked keys are easy to recognise and scan for. */
export const apiKeyPrefix = 'sk-gw-';

/** A new random key: the prefix and 40 base64url characters (240 bits). */
export function generateApiKeySecret(): string {
  return apiKeyPrefix + randomBytes(30).toString('base64url');
}

/** The lowercase hex SHA-256 stored in place of the key; keys are random enough that a slow hash adds nothing. */
export function hashApiKeySecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** The part of a key that may be shown again in lists. */
export function displayPrefixOf(secret: string): string {
  return secret.slice(0, apiKeyPrefix.length + 4);
}
