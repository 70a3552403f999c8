import type { RedemptionCodeStatus } from './redemption-codes-types';

/** The list's filters; null status or an empty batch id means any. */
export interface RedemptionCodeFilters {
  status: RedemptionCodeStatus | null;
  batchId: string;
}

/** No filter at all. */
export const noRedemptionCodeFilters: RedemptionCodeFilters = { status: null, batchId: '' };

/** How many codes one page shows. */
export const redemptionCodesPageSize = 50;

/** The filter part of the list's query string (also what the CSV export sends). */
function filterParameters(filters: RedemptionCodeFilters): URLSearchParams {
  const query = new URLSearchParams();
  if (filters.status) query.set('status', filters.status);
  const batchId = filters.batchId.trim();
  if (batchId) query.set('batch', batchId);
  return query;
}

/** The query string of GET /api/admin/redemption-codes for the filters and the page's cursor. */
export function redemptionCodesQueryString(filters: RedemptionCodeFilters, cursor: string | null, limit = redemptionCodesPageSize): string {
  const query = filterParameters(filters);
  query.set('limit', String(limit));
  if (cursor) query.set('cursor', cursor);
  return query.toString();
}

/** Where the browser downloads every code matching the filters as CSV (the gateway answers it as an attachment). */
export function redemptionCodesExportUrl(filters: RedemptionCodeFilters): string {
  const query = filterParameters(filters);
  query.set('format', 'csv');
  return `/api/admin/redemption-codes?${query.toString()}`;
}
