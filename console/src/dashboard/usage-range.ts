/** The time ranges the dashboard summarises. */
export type UsageRange = '24h' | '7d' | '30d';

/** Every range, shortest first. */
export const usageRanges: readonly UsageRange[] = ['24h', '7d', '30d'];

const millisecondsPerDay = 86_400_000;

/** The UTC day (YYYY-MM-DD) holding Unix milliseconds `time`. */
export function utcDayOf(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}

/** The `count` UTC days up to and including today's (at `now`), oldest first. */
export function lastUtcDays(count: number, now: number): string[] {
  const days: string[] = [];
  for (let back = count - 1; back >= 0; back -= 1) days.push(utcDayOf(now - back * millisecondsPerDay));
  return days;
}

/** How many UTC days a daily range covers (today included). */
export function daysOfRange(range: Exclude<UsageRange, '24h'>): number {
  switch (range) {
    case '7d':
      return 7;
    case '30d':
      return 30;
    default: {
      const unreachable: never = range;
      throw new Error(`unknown range ${String(unreachable)}`);
    }
  }
}
