/**
 * A request field as a positive integer (a number, or digits in a string as multipart forms carry them); undefined
 * for anything else, so an absent, zero or malformed count or cap falls back to the default.
 */
export function readPositiveInteger(value: unknown): number | undefined {
  if (typeof value === 'string' && value.trim() !== '') value = Number(value);
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}
