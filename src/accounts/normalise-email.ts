import { createHash } from 'node:crypto';

/** The form emails are stored and compared in: trimmed and lowercase. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** SHA-256 hex of a normalised email: names an account in logs and counters without revealing the address. */
export function hashNormalisedEmail(normalisedEmail: string): string {
  return createHash('sha256').update(normalisedEmail).digest('hex');
}
