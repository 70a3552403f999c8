import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import type { UsageLogFilter, UsageLogRecord } from '../../storage/billing-records.js';
import type { BillingStore } from '../../storage/billing-store.js';
import type { RequestPricing } from '../../billing/request-pricing.js';

/** The CSV's columns, in order: the fields of a usage log as `GET /api/usage/logs` returns them. */
export const usageLogCsvColumns = [
  'id',
  'createdAt',
  'requestId',
  'userId',
  'apiKeyId',
  'model',
  'channelId',
  'endpoint',
  'promptTokens',
  'completionTokens',
  'cachedTokens',
  'cacheWriteTokens',
  'cost',
  'status',
  'errorCode',
  'latencyMs',
  'firstTokenMs',
  'streamed',
  'clientIp',
  // added with 1-hour cache-write prices (migration 0019): of cacheWriteTokens, the 1-hour ones
  'cacheWriteOneHourTokens',
] as const satisfies ReadonlyArray<keyof UsageLogRecord>;

/** Then the log's `pricing`, one column per field (empty when the row has none). */
export const usageLogPricingCsvColumns = [
  'inputPerMillion',
  'cachedInputPerMillion',
  'cacheWritePerMillion',
  'outputPerMillion',
  'priceRatioMillionths',
  'imageCost',
  'audioMilliseconds',
  'audioPerMinute',
  'videoCost',
  'cacheWriteOneHourPerMillion',
] as const satisfies ReadonlyArray<keyof RequestPricing>;

// Rows read from the database per query: one page of the newest-first cursor.
const rowsPerPage = 500;

/**
 * The usage logs matching `filter` as CSV, newest first, read from the database a page at a time while the client
 * reads (never all in memory), ending after `maxRows` rows. Cells that a spreadsheet would run as a formula are
 * escaped.
 */
export function streamUsageLogCsv(
  store: BillingStore,
  filter: Omit<UsageLogFilter, 'limit'>,
  maxRows: number,
): Readable {
  return Readable.from(readCsvLines(store, filter, maxRows), { objectMode: false });
}

async function* readCsvLines(
  store: BillingStore,
  filter: Omit<UsageLogFilter, 'limit'>,
  maxRows: number,
): AsyncGenerator<string> {
  yield stringify([[...usageLogCsvColumns, ...usageLogPricingCsvColumns]]);
  let before = filter.before;
  let written = 0;
  while (written < maxRows) {
    const limit = Math.min(rowsPerPage, maxRows - written);
    const page = await store.listUsageLogs({ ...filter, before, limit });
    if (page.length === 0) return;
    yield stringify(
      page.map((log) => [
        ...usageLogCsvColumns.map((column) => encodeCell(log[column])),
        ...usageLogPricingCsvColumns.map((column) => (log.pricing === null ? '' : String(log.pricing[column]))),
      ]),
      { escape_formulas: true },
    );
    written += page.length;
    if (page.length < limit) return;
    const last = page[page.length - 1];
    if (!last) return;
    before = { createdAt: last.createdAt, id: last.id };
  }
}

function encodeCell(value: UsageLogRecord[(typeof usageLogCsvColumns)[number]]): string {
  if (value === null || value === undefined) return '';
  return String(value);
}
