import { createHash } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';

/** Seconds per TOTP time step. */
const periodSeconds = 30;
/** Time steps either side of now whose code is accepted (clock drift between phone and server). */
const stepWindow = 1;
/** How many recovery codes an enrolment hands out. */
export const recoveryCodeCount = 10;

/** A new random TOTP secret (160 bits), base32 as authenticator apps take it. */
export function createTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The `otpauth://totp/...` URI an authenticator app reads from a QR code (SHA-1, 6 digits, 30 s). */
export function totpUri(secret: string, options: { issuer: string; account: string }): string {
  return totpOf(secret, options).toString();
}

/** The code for a time (tests and the console's examples; sign-in only verifies). */
export function totpCodeAt(secret: string, timestamp: number): string {
  return totpOf(secret).generate({ timestamp });
}

/**
 * The time step a code belongs to when it is valid within one step of `now`, else undefined; the caller records the
 * step so the same code (or an older one) is refused the next time.
 */
export function verifyTotpCode(secret: string, code: string, now: number): number | undefined {
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return undefined;
  const delta = totpOf(secret).validate({ token, timestamp: now, window: stepWindow });
  if (delta === null) return undefined;
  return Math.floor(now / 1000 / periodSeconds) + delta;
}

/** Ten new recovery codes, `xxxxx-xxxxx` in lowercase base32 (50 bits each), shown once. */
export function createRecoveryCodes(): string[] {
  return Array.from({ length: recoveryCodeCount }, () => {
    const letters = new Secret({ size: 10 }).base32.toLowerCase().slice(0, 10);
    return `${letters.slice(0, 5)}-${letters.slice(5)}`;
  });
}

/**
 * What is stored of a recovery code: SHA-256 hex of the user's id and the code's letters (case, spaces and dashes do
 * not matter); the id makes one table of guesses useless against every other user.
 */
export function hashRecoveryCode(userId: string, code: string): string {
  const letters = code.toLowerCase().replace(/[^a-z2-7]/g, '');
  return createHash('sha256').update(`recovery:${userId}:${letters}`).digest('hex');
}

function totpOf(secret: string, label?: { issuer: string; account: string }): TOTP {
  return new TOTP({
    issuer: label?.issuer ?? '',
    label: label?.account ?? 'account',
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: 6,
    period: periodSeconds,
  });
}
