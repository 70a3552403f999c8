import { describe, expect, it } from 'vitest';
import { balanceOutlook } from './balance-outlook';
import type { DailyUsageSummary, HourlyUsageSummary } from './dashboard-types';
import { modelShare, requestsPerBucket, spendByModel, usageByKey } from './usage-chart-data';
import { dailyPeriod, hourlyPeriod, periodTotals } from './usage-period';
import { lastUtcDays } from './usage-range';

const row = (day: string, model: string, cost: number, requestCount = 1, apiKeyId = 'k1', errorCount = 0) => ({ day, userId: 'u1', apiKeyId, model, requestCount, errorCount, promptTokens: 0, completionTokens: 0, cachedTokens: 0, cost });

describe('usage periods', () => {
  it('lists the last UTC days up to today, oldest first', () => {
    expect(lastUtcDays(3, Date.UTC(2026, 2, 1, 0, 30))).toEqual(['2026-02-27', '2026-02-28', '2026-03-01']);
  });

  it('keeps only the rows of the chosen days and adds them up', () => {
    const summary: DailyUsageSummary = { data: [row('2026-01-01', 'a', 5), row('2026-01-09', 'a', 7, 2, 'k1', 1)], totals: { requestCount: 3, errorCount: 1, promptTokens: 0, completionTokens: 0, cost: 12 } };
    const period = dailyPeriod(summary, ['2026-01-08', '2026-01-09']);
    expect(period.rows.map((item) => item.bucket)).toEqual(['2026-01-09']);
    expect(periodTotals(period)).toEqual({ requestCount: 2, errorCount: 1, cost: 7 });
  });

  it('reads hourly summaries with every hour as a bucket', () => {
    const summary: HourlyUsageSummary = {
      granularity: 'hour', from: 0, to: 7_200_000,
      data: [{ hour: 3_600_000, userId: 'u1', apiKeyId: 'k1', model: 'a', requestCount: 4, errorCount: 1, promptTokens: 0, completionTokens: 0, cost: 9 }],
      hours: [0, 3_600_000].map((hour) => ({ hour, requestCount: 0, errorCount: 0, promptTokens: 0, completionTokens: 0, cost: 0 })),
      totals: { requestCount: 4, errorCount: 1, promptTokens: 0, completionTokens: 0, cost: 9 },
    };
    expect(requestsPerBucket(hourlyPeriod(summary))).toEqual([{ bucket: '0', requests: 0, errors: 0 }, { bucket: '3600000', requests: 4, errors: 1 }]);
  });
});

describe('chart data', () => {
  const period = dailyPeriod(
    { data: [row('d1', 'gpt-4.1', 300), row('d1', 'small', 100), row('d2', 'gpt-4.1', 50), row('d2', 'tiny', 20, 3, 'k2'), row('d2', 'micro', 10, 1, 'k2')], totals: { requestCount: 0, errorCount: 0, promptTokens: 0, completionTokens: 0, cost: 0 } },
    ['d0', 'd1', 'd2'],
  );

  it('stacks spend per day by the top models, folding the rest into other, with a zero row for a quiet day', () => {
    const chart = spendByModel(period, 'Other', 2);
    expect(chart.series.map((series) => [series.name, series.label])).toEqual([['series0', 'gpt-4.1'], ['series1', 'small'], ['other', 'Other']]);
    expect(chart.data).toEqual([
      { bucket: 'd0', series0: 0, series1: 0, other: 0 },
      { bucket: 'd1', series0: 300, series1: 100, other: 0 },
      { bucket: 'd2', series0: 50, series1: 0, other: 30 },
    ]);
  });

  it('has no other series when every model is named', () => {
    expect(spendByModel(period, 'Other', 5).series.map((series) => series.name)).toEqual(['series0', 'series1', 'series2', 'series3']);
  });

  it('shares spend by model, by requests when nothing cost anything', () => {
    expect(modelShare(period, 'Other', 2)).toEqual({ measure: 'cost', slices: [{ name: 'gpt-4.1', value: 350, color: 'blue.6' }, { name: 'small', value: 100, color: 'teal.6' }, { name: 'Other', value: 30, color: 'gray.6' }] });
    const free = dailyPeriod({ data: [row('d1', 'free', 0, 4)], totals: { requestCount: 4, errorCount: 0, promptTokens: 0, completionTokens: 0, cost: 0 } }, ['d1']);
    expect(modelShare(free, 'Other')).toEqual({ measure: 'requests', slices: [{ name: 'free', value: 4, color: 'blue.6' }] });
  });

  it('sums usage per key, most spend first', () => {
    expect(usageByKey(period)).toEqual([
      { apiKeyId: 'k1', cost: 450, requestCount: 3, errorCount: 0 },
      { apiKeyId: 'k2', cost: 30, requestCount: 4, errorCount: 0 },
    ]);
  });
});

describe('the balance outlook', () => {
  const balance = (available: number, debt = 0) => ({ balance: available, held: 0, available, debt });

  it('has no runway without spend, and warns only when nothing is available', () => {
    expect(balanceOutlook(balance(5_000_000), 0)).toEqual({ runwayDays: null, low: false });
    expect(balanceOutlook(balance(0), 0)).toEqual({ runwayDays: null, low: true });
  });

  it('divides the available balance by the 7-day average spend, in whole days', () => {
    // 7 units spent in 7 days: 1 a day; 10.5 units last 10 days.
    expect(balanceOutlook(balance(10_500_000), 7_000_000)).toEqual({ runwayDays: 10, low: false });
    expect(balanceOutlook(balance(2_999_999), 7_000_000)).toEqual({ runwayDays: 2, low: true });
    expect(balanceOutlook(balance(3_000_000), 7_000_000)).toEqual({ runwayDays: 3, low: false });
  });

  it('warns on debt whatever the runway', () => {
    expect(balanceOutlook(balance(50_000_000, 1), 1_000_000).low).toBe(true);
  });
});
