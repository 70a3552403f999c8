import { z } from 'zod';

// Multipart fields arrive as text. These parse them strictly: `z.coerce` would read "" as 0, "0x10" as 16 and
// " 1e3 " as 1000, so a malformed field would reach the vendor (and the hold) as a different number.

/** An integer written in decimal digits (optional sign), then checked by `range`. */
export function formInteger(range: z.ZodNumber) {
  return z
    .string()
    .regex(/^-?\d{1,16}$/, 'must be an integer')
    .transform(Number)
    .pipe(range);
}

/** A decimal number (digits, optional fraction and exponent), then checked by `range`. */
export function formNumber(range: z.ZodNumber) {
  return z
    .string()
    .regex(/^-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/, 'must be a number')
    .transform(Number)
    .pipe(range);
}

/** `true` or `false`. */
export const formBoolean = z.enum(['true', 'false']).transform((value) => value === 'true');
