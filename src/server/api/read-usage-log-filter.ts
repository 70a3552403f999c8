import { z } from 'zod';
import type { UsageLogFilter } from '../../storage/billing-records.js';
import { requireUser, type ApiCaller } from './authenticate-api-caller.js';
import { parseApiInput } from './parse-api-input.js';
import { parseCursor } from './present-api-records.js';

/** Query of `GET /api/usage/logs` and its CSV export: the same filters for both. */
const usageLogQuerySchema = z.object({
  /** Unix milliseconds, inclusive */
  from: z.coerce.number().int().optional(),
  /** Unix milliseconds, exclusive */
  to: z.coerce.number().int().optional(),
  model: z.string().optional(),
  keyId: z.string().optional(),
  status: z.coerce.number().int().optional(),
  /** `2xx`, `4xx`, `5xx` (any of 1xx to 5xx) */
  statusClass: z
    .string()
    .regex(/^[1-5]xx$/, 'use 2xx, 4xx or 5xx')
    .transform((value) => Number(value[0]))
    .optional(),
  /** the usage log's endpoint, e.g. `chat.completions` */
  endpoint: z.string().max(64).optional(),
  /** the `x-request-id` a /v1 answer carried */
  requestId: z.string().max(128).optional(),
  /** admins only: one user's logs (default everyone's) */
  userId: z.string().optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
  cursor: z.string().optional(),
  /** `csv` exports every matching row (up to the export cap) instead of one JSON page */
  format: z.enum(['json', 'csv']).default('json'),
});

/** A usage log query as the store takes it, plus the answer's format. */
export interface UsageLogQuery {
  filter: UsageLogFilter;
  format: 'json' | 'csv';
}

/** Reads the usage log filters of a query; only admins choose whose logs to read, everyone else reads exactly their own. */
export function readUsageLogFilter(caller: ApiCaller, rawQuery: unknown): UsageLogQuery {
  const query = parseApiInput(usageLogQuerySchema, rawQuery);
  return {
    format: query.format,
    filter: {
      userId: caller.isAdmin ? query.userId : requireUser(caller).id,
      apiKeyId: query.keyId,
      model: query.model,
      status: query.status,
      statusClass: query.statusClass,
      endpoint: query.endpoint,
      requestId: query.requestId,
      from: query.from,
      to: query.to,
      limit: query.limit,
      before: parseCursor(query.cursor),
    },
  };
}
