import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../api/authenticate-api-caller.js';
import { parseApiInput } from '../api/parse-api-input.js';
import { encodeCursor, parseCursor, presentUsageLog } from '../api/present-api-records.js';
import type { ApiRouteContext } from './api-routes.js';

const daySchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'use YYYY-MM-DD');
const logQuerySchema = z.object({
  /** Unix milliseconds, inclusive */
  from: z.coerce.number().int().optional(),
  /** Unix milliseconds, exclusive */
  to: z.coerce.number().int().optional(),
  model: z.string().optional(),
  keyId: z.string().optional(),
  status: z.coerce.number().int().optional(),
  /** admins only: one user's logs (default everyone's) */
  userId: z.string().optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
  cursor: z.string().optional(),
});
const summaryQuerySchema = z.object({
  fromDay: daySchema.optional(),
  toDay: daySchema.optional(),
  model: z.string().optional(),
  keyId: z.string().optional(),
  userId: z.string().optional(),
});

/** Usage logs (own, or everyone's for admins; filtered and paginated) and daily usage summaries. */
export function registerApiUsageRoutes(app: FastifyInstance, { api }: ApiRouteContext): void {
  const { billing } = api;

  app.get('/usage/logs', async (request) => {
    const caller = request.apiCaller;
    const query = parseApiInput(logQuerySchema, request.query);
    // Only admins choose whose logs to read; everyone else reads exactly their own.
    const userId = caller.isAdmin ? query.userId : requireUser(caller).id;
    const logs = await billing.store.listUsageLogs({
      userId,
      apiKeyId: query.keyId,
      model: query.model,
      status: query.status,
      from: query.from,
      to: query.to,
      limit: query.limit,
      before: parseCursor(query.cursor),
    });
    return { data: logs.map(presentUsageLog), nextCursor: encodeCursor(logs, query.limit) };
  });

  app.get('/usage/summary', async (request) => {
    const caller = request.apiCaller;
    const query = parseApiInput(summaryQuerySchema, request.query);
    const userId = caller.isAdmin ? query.userId : requireUser(caller).id;
    const rows = await billing.store.listUsageSummaries({ userId, apiKeyId: query.keyId, model: query.model, fromDay: query.fromDay, toDay: query.toDay });
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
