/**
 * When a vendor's `Retry-After` header says to come back, as Unix milliseconds: the header is either a number of
 * seconds (RFC 9110 delay-seconds; fractions accepted) or an HTTP date. Undefined when absent, unreadable, or not
 * in the future (a `0` or a past date asks for nothing).
 */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(trimmed)) {
    const seconds = Number(trimmed);
    return seconds > 0 ? now + Math.ceil(seconds * 1000) : undefined;
  }
  const date = Date.parse(trimmed);
  if (Number.isNaN(date) || date <= now) return undefined;
  return date;
}
