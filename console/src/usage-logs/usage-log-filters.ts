/** The time range presets of the logs pages; `custom` uses `from` / `to`. */
export const timeRangePresets = ['1h', '24h', '7d', '30d', 'all', 'custom'] as const;

/** One time range preset. */
export type TimeRangePreset = (typeof timeRangePresets)[number];

/** The status classes a user can filter by. */
export const statusClasses = ['2xx', '4xx', '5xx'] as const;

/** One status class. */
export type StatusClass = (typeof statusClasses)[number];

/** The filters of a logs page, as kept in its URL; empty strings mean "any". */
export interface UsageLogFilters {
  range: TimeRangePreset;
  /** `custom` range start, a local `YYYY-MM-DDTHH:mm` (as a datetime-local input gives it) */
  from: string;
  /** `custom` range end (exclusive), same format */
  to: string;
  model: string;
  keyId: string;
  statusClass: StatusClass | '';
  requestId: string;
  /** all logs (admins) only: one user's rows */
  userId: string;
}

/** The filters a page opens with. */
export const defaultUsageLogFilters: UsageLogFilters = { range: '7d', from: '', to: '', model: '', keyId: '', statusClass: '', requestId: '', userId: '' };

const millisecondsPerHour = 3_600_000;

/** How far back each relative preset reaches. */
function presetSpan(range: Exclude<TimeRangePreset, 'all' | 'custom'>): number {
  switch (range) {
    case '1h':
      return millisecondsPerHour;
    case '24h':
      return 24 * millisecondsPerHour;
    case '7d':
      return 7 * 24 * millisecondsPerHour;
    case '30d':
      return 30 * 24 * millisecondsPerHour;
    default: {
      const unreachable: never = range;
      throw new Error(`unknown range ${String(unreachable)}`);
    }
  }
}

/** A datetime-local value as Unix milliseconds in the browser's time zone, or undefined when empty or invalid. */
function parseLocalDateTime(value: string): number | undefined {
  if (value.trim() === '') return undefined;
  const time = new Date(value).getTime();
  return Number.isNaN(time) ? undefined : time;
}

/** The [from, to) range of the filters in Unix milliseconds, relative presets counted back from `now`. */
export function resolveTimeRange(filters: UsageLogFilters, now: number): { from?: number; to?: number } {
  switch (filters.range) {
    case 'all':
      return {};
    case 'custom':
      return { from: parseLocalDateTime(filters.from), to: parseLocalDateTime(filters.to) };
    case '1h':
    case '24h':
    case '7d':
    case '30d':
      return { from: now - presetSpan(filters.range) };
    default: {
      const unreachable: never = filters.range;
      throw new Error(`unknown range ${String(unreachable)}`);
    }
  }
}

/**
 * The query string of GET /api/usage/logs (and its CSV export) for the filters, without paging: only the filters
 * that are set, trimmed; `userId` only when `withUser` (the all-logs page).
 */
export function buildUsageLogQuery(filters: UsageLogFilters, now: number, withUser: boolean): string {
  const query = new URLSearchParams();
  const { from, to } = resolveTimeRange(filters, now);
  if (from !== undefined) query.set('from', String(from));
  if (to !== undefined) query.set('to', String(to));
  const text = (name: string, value: string) => {
    if (value.trim() !== '') query.set(name, value.trim());
  };
  text('model', filters.model);
  text('keyId', filters.keyId);
  text('statusClass', filters.statusClass);
  text('requestId', filters.requestId);
  if (withUser) text('userId', filters.userId);
  return query.toString();
}

/** Reads the filters from a page's URL search parameters; anything missing or unknown takes its default. */
export function readUsageLogFilters(search: Record<string, unknown>): UsageLogFilters {
  const text = (name: keyof UsageLogFilters) => {
    const value = search[name];
    return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
  };
  const range = text('range');
  const statusClass = text('statusClass');
  return {
    range: (timeRangePresets as readonly string[]).includes(range) ? (range as TimeRangePreset) : defaultUsageLogFilters.range,
    from: text('from'),
    to: text('to'),
    model: text('model'),
    keyId: text('keyId'),
    statusClass: (statusClasses as readonly string[]).includes(statusClass) ? (statusClass as StatusClass) : '',
    requestId: text('requestId'),
    userId: text('userId'),
  };
}

/** The filters as URL search parameters: only those that differ from the defaults, so a plain page has a plain URL. */
export function writeUsageLogFilters(filters: UsageLogFilters): Partial<Record<keyof UsageLogFilters, string>> {
  const search: Partial<Record<keyof UsageLogFilters, string>> = {};
  for (const name of Object.keys(defaultUsageLogFilters) as Array<keyof UsageLogFilters>) {
    const value = filters[name].trim();
    if (value !== defaultUsageLogFilters[name]) search[name] = value;
  }
  return search;
}
