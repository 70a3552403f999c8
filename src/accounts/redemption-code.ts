import { createHash, randomBytes } from 'node:crypto';

/** Characters of a redemption code: upper-case letters and digits without the look-alikes 0/O, 1/I (32 symbols, 5 bits each). */
const codeAlphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** Symbols per code: 28 × 5 bits = 140 random bits, shown as 7 groups of 4. */
const codeLength = 28;
/** Symbols kept in clear for lists and exports. */
const displayPrefixLength = 6;

/**
 * A new redemption code from the operating system's CSPRNG, e.g. `K7QM-2XPA-...` (28 symbols in groups of 4).
 * 256 is a multiple of 32, so taking each byte modulo 32 draws every symbol with equal chance.
 */
export function generateRedemptionCode(): string {
  const bytes = randomBytes(codeLength);
  let code = '';
  for (let index = 0; index < codeLength; index += 1) {
    if (index > 0 && index % 4 === 0) code += '-';
    code += codeAlphabet[(bytes[index] ?? 0) % codeAlphabet.length];
  }
  return code;
}

/** What a user typed, reduced to the symbols that count: dashes and white space dropped, letters upper-cased. */
export function normaliseRedemptionCode(input: string): string {
  return input.replace(/[\s-]+/g, '').toUpperCase();
}

/** Lowercase hex SHA-256 of the normalised code: what the database keeps instead of the code. */
export function hashRedemptionCode(code: string): string {
  return createHash('sha256').update(normaliseRedemptionCode(code)).digest('hex');
}

/** The first symbols of a code, safe to show in lists and CSV exports. */
export function redemptionCodeDisplayPrefix(code: string): string {
  return normaliseRedemptionCode(code).slice(0, displayPrefixLength);
}
