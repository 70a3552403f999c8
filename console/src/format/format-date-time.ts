/** Shows Unix milliseconds as a short local date and time in the given language. */
export function formatDateTime(unixMilliseconds: number, locale: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(unixMilliseconds));
}

/** Shows a price ratio in millionths as a plain multiplier: 1_500_000 → "1.5". */
export function formatPriceRatio(priceRatioMillionths: number): string {
  const whole = Math.floor(priceRatioMillionths / 1_000_000);
  const fraction = String(priceRatioMillionths % 1_000_000).padStart(6, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : String(whole);
}
