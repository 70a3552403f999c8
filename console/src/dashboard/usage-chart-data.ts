import type { UsagePeriod } from './usage-period';

/** How many models the charts name before folding the rest into "other". */
export const shownModelCount = 5;

/** The colours of the named models' series, in order; "other" is grey. */
const seriesColors = ['blue.6', 'teal.6', 'grape.6', 'orange.6', 'cyan.6', 'pink.6', 'lime.6', 'indigo.6'] as const;
const otherColor = 'gray.6';
/** The data key of the "other models" series. */
export const otherSeriesKey = 'other';

/** One series of a chart: its data key (safe for Recharts: no dots), what the legend says, and its colour. */
export interface ChartSeriesShape {
  name: string;
  label: string;
  color: string;
}

/** A chart's rows (one per bucket, `bucket` holding the bucket) and its series. */
export interface StackedChartShape {
  data: Array<Record<string, string | number>>;
  series: ChartSeriesShape[];
}

/** One slice of the model-share chart. */
export interface ShareSlice {
  name: string;
  value: number;
  color: string;
}

/** The models of a period by cost, most first (then by requests, then name), the first `count` named. */
export function topModels(period: UsagePeriod, count = shownModelCount): string[] {
  const byModel = new Map<string, { cost: number; requests: number }>();
  for (const row of period.rows) {
    const sum = byModel.get(row.model) ?? { cost: 0, requests: 0 };
    sum.cost += row.cost;
    sum.requests += row.requestCount;
    byModel.set(row.model, sum);
  }
  return [...byModel.entries()]
    .sort(([leftName, left], [rightName, right]) => right.cost - left.cost || right.requests - left.requests || leftName.localeCompare(rightName))
    .map(([model]) => model)
    .slice(0, count);
}

/**
 * Spend per bucket stacked by model: the top models by cost as their own series (`series0`, `series1`, … so model
 * names with dots stay plain keys), every other model summed into `other` (only when there is one). Micro-units.
 */
export function spendByModel(period: UsagePeriod, otherLabel: string, count = shownModelCount): StackedChartShape {
  const named = topModels(period, count);
  const keyOfModel = new Map(named.map((model, index) => [model, `series${index}`]));
  const series: ChartSeriesShape[] = named.map((model, index) => ({ name: `series${index}`, label: model, color: seriesColors[index % seriesColors.length] ?? otherColor }));
  const hasOther = period.rows.some((row) => !keyOfModel.has(row.model));
  if (hasOther) series.push({ name: otherSeriesKey, label: otherLabel, color: otherColor });
  const rows = new Map(period.buckets.map((bucket) => [bucket, Object.fromEntries([['bucket', bucket], ...series.map((item) => [item.name, 0])]) as Record<string, string | number>]));
  for (const row of period.rows) {
    const target = rows.get(row.bucket);
    if (!target) continue;
    const key = keyOfModel.get(row.model) ?? otherSeriesKey;
    target[key] = Number(target[key] ?? 0) + row.cost;
  }
  return { data: [...rows.values()], series };
}

/** Requests and errors per bucket, every bucket present. */
export function requestsPerBucket(period: UsagePeriod): Array<{ bucket: string; requests: number; errors: number }> {
  const rows = new Map(period.buckets.map((bucket) => [bucket, { bucket, requests: 0, errors: 0 }]));
  for (const row of period.rows) {
    const target = rows.get(row.bucket);
    if (!target) continue;
    target.requests += row.requestCount;
    target.errors += row.errorCount;
  }
  return [...rows.values()];
}

/**
 * Each top model's share of the period's spend (micro-units), the rest as "other"; by requests instead when
 * nothing cost anything (free models), so the chart still says which models were used. Empty slices are left out.
 */
export function modelShare(period: UsagePeriod, otherLabel: string, count = shownModelCount): { measure: 'cost' | 'requests'; slices: ShareSlice[] } {
  const totalCost = period.rows.reduce((sum, row) => sum + row.cost, 0);
  const measure = totalCost > 0 ? 'cost' : 'requests';
  const valueOf = (row: UsagePeriod['rows'][number]) => (measure === 'cost' ? row.cost : row.requestCount);
  const named = topModels(period, count);
  const slices: ShareSlice[] = named.map((model, index) => ({ name: model, value: 0, color: seriesColors[index % seriesColors.length] ?? otherColor }));
  const other: ShareSlice = { name: otherLabel, value: 0, color: otherColor };
  const sliceOf = new Map(slices.map((slice) => [slice.name, slice]));
  for (const row of period.rows) (sliceOf.get(row.model) ?? other).value += valueOf(row);
  return { measure, slices: [...slices, other].filter((slice) => slice.value > 0) };
}

/** Spend, requests and errors of one key in a period. */
export interface KeyUsage {
  apiKeyId: string;
  /** micro-units */
  cost: number;
  requestCount: number;
  errorCount: number;
}

/** The period's usage per key, most spend first (then most requests). */
export function usageByKey(period: UsagePeriod): KeyUsage[] {
  const byKey = new Map<string, KeyUsage>();
  for (const row of period.rows) {
    const sum = byKey.get(row.apiKeyId) ?? { apiKeyId: row.apiKeyId, cost: 0, requestCount: 0, errorCount: 0 };
    sum.cost += row.cost;
    sum.requestCount += row.requestCount;
    sum.errorCount += row.errorCount;
    byKey.set(row.apiKeyId, sum);
  }
  return [...byKey.values()].sort((left, right) => right.cost - left.cost || right.requestCount - left.requestCount || left.apiKeyId.localeCompare(right.apiKeyId));
}
