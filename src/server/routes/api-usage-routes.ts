import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { GatewayError } from '../../core/gateway-error.js';
import { requireUser } from '../api/authenticate-api-caller.js';
import { parseApiInput } from '../api/parse-api-input.js';
import { encodeCursor, presentUsageLog } from '../api/present-api-records.js';
import { readUsageLogFilter } from '../api/read-usage-log-filter.js';
import { streamUsageLogCsv } from '../api/stream-usage-log-csv.js';
import { summarizeHourlyUsage } from '../api/summarize-hourly-usage.js';
import type { ApiRouteContext } from './api-routes.js';

const millisecondsPerHour = 3_600_000;
// The hourly view covers at most 31 days (744 rows per key and model); longer ranges use the daily rollups.
const longestHourlyRange = 31 * 24 * millisecondsPerHour;

const daySchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'use YYYY-MM-DD');
const summaryQuerySchema = z.object({
  /** `day` (default: daily rollups, `fromDay`/`toDay`) or `hour` (hourly rollups, `from`/`to`) */
  granularity: z.enum(['day', 'hour']).default('day'),
  fromDay: daySchema.optional(),
  toDay: daySchema.optional(),
  /** Unix milliseconds, inclusive (rounded down to the hour); default 24 hours before `to` */
  from: z.coerce.number().int().min(0).optional(),
  /** Unix milliseconds, exclusive (rounded up to the hour); default the end of the current hour */
  to: z.coerce.number().int().min(0).optional(),
  model: z.string().optional(),
  keyId: z.string().optional(),
  userId: z.string().optional(),
});

const refusalsQuerySchema = z.object({
  /** Unix milliseconds, inclusive; default 24 hours before `to` */
  from: z.coerce.number().int().min(0).optional(),
  /** Unix milliseconds, exclusive; default now */
  to: z.coerce.number().int().min(0).optional(),
  keyId: z.string().optional(),
  userId: z.string().optional(),
});

/** Usage logs (own, or everyone's for admins; filtered, paginated or exported as CSV) and daily or hourly usage summaries. */
export function registerApiUsageRoutes(app: FastifyInstance, { services, api }: ApiRouteContext): void {
  const { billing } = api;

  /** Sends every matching row as a CSV attachment, streamed from the database, at most the configured number of rows. */
  function sendCsv(request: FastifyRequest, reply: FastifyReply) {
    const { filter } = readUsageLogFilter(request.apiCaller, request.query);
    const maxRows = billing.config.usageExportMaxRows;
    void reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="usage-logs.csv"')
      .header('x-export-row-limit', String(maxRows));
    return reply.send(streamUsageLogCsv(billing.store, filter, maxRows));
  }

  app.get('/usage/logs', async (request, reply) => {
    const { filter, format } = readUsageLogFilter(request.apiCaller, request.query);
    if (format === 'csv') return sendCsv(request, reply);
    const logs = await billing.store.listUsageLogs(filter);
    return { data: logs.map(presentUsageLog), nextCursor: encodeCursor(logs, filter.limit) };
  });

  app.get('/usage/logs.csv', async (request, reply) => sendCsv(request, reply));

  // Requests refused before any upstream call are counted per minute, key, model, status and code, not logged one row each.
  app.get('/usage/refusals', async (request) => {
    const caller = request.apiCaller;
    const query = parseApiInput(refusalsQuerySchema, request.query);
    const userId = caller.isAdmin ? query.userId : requireUser(caller).id;
    const to = query.to ?? services.clock() + 1;
    const from = query.from ?? to - 24 * millisecondsPerHour;
    if (from >= to) throw new GatewayError('invalid_request_error', 'from must be before to.', { param: 'from' });
    if (to - from > longestHourlyRange)
      throw new GatewayError('invalid_request_error', 'The refusals view covers at most 31 days.', { param: 'from' });
    const rows = await billing.store.listRefusedRequestCounts({ userId, apiKeyId: query.keyId, from, to });
    return { from, to, data: rows, total: rows.reduce((sum, row) => sum + row.count, 0) };
  });

  app.get('/usage/summary', async (request) => {
    const caller = request.apiCaller;
    const query = parseApiInput(summaryQuerySchema, request.query);
    const userId = caller.isAdmin ? query.userId : requireUser(caller).id;
    if (query.granularity === 'hour') {
      const to = Math.ceil((query.to ?? services.clock() + 1) / millisecondsPerHour) * millisecondsPerHour;
      const from =
        Math.floor((query.from ?? to - 24 * millisecondsPerHour) / millisecondsPerHour) * millisecondsPerHour;
      if (from >= to) throw new GatewayError('invalid_request_error', 'from must be before to.', { param: 'from' });
      if (to - from > longestHourlyRange)
        throw new GatewayError(
          'invalid_request_error',
          'The hourly view covers at most 31 days; use granularity=day for longer ranges.',
          { param: 'from' },
        );
      const rows = await billing.store.listHourlyUsage({ userId, apiKeyId: query.keyId, model: query.model, from, to });
      return { granularity: 'hour', from, to, data: rows, ...summarizeHourlyUsage(rows, from, to) };
    }
    const rows = await billing.store.listUsageSummaries({
      userId,
      apiKeyId: query.keyId,
      model: query.model,
      fromDay: query.fromDay,
      toDay: query.toDay,
    });
    const totals = rows.reduce(
      (sum, row) => ({
        requestCount: sum.requestCount + row.requestCount,
        errorCount: sum.errorCount + row.errorCount,
        promptTokens: sum.promptTokens + row.promptTokens,
        completionTokens: sum.completionTokens + row.completionTokens,
        cost: sum.cost + row.cost,
      }),
      { requestCount: 0, errorCount: 0, promptTokens: 0, completionTokens: 0, cost: 0 },
    );
    return { data: rows, totals };
  });
}
