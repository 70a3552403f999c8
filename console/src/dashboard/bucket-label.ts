import type { UsageRange } from './usage-range';

/** A chart's axis label for a bucket: the hour ("14:00", local time) for 24 hours, the UTC day ("Nov 23") otherwise. */
export function bucketLabel(bucket: string, range: UsageRange, locale: string): string {
  switch (range) {
    case '24h':
      return new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit' }).format(new Date(Number(bucket)));
    case '7d':
    case '30d':
      return new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(new Date(`${bucket}T00:00:00Z`));
    default: {
      const unreachable: never = range;
      throw new Error(`unknown range ${String(unreachable)}`);
    }
  }
}
