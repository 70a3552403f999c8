import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireAdmin } from '../api/authenticate-api-caller.js';
import { parseApiInput } from '../api/parse-api-input.js';
import type { ApiRouteContext } from './api-routes.js';

const listSchema = z.object({
  action: z.string().min(1).optional(),
  targetId: z.string().min(1).optional(),
  /** Unix milliseconds: entries before it (the previous page's last `createdAt`) */
  before: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

/** `GET /api/admin/audit-log` (admin): administrators' actions, newest first, filtered by action or record. */
export function registerApiAuditLogRoutes(app: FastifyInstance, { api }: ApiRouteContext): void {
  app.get('/admin/audit-log', async (request) => {
    requireAdmin(request.apiCaller);
    const filter = parseApiInput(listSchema, request.query);
    const entries = await api.gatewayStore.listAuditEntries(filter);
    const last = entries.at(-1);
    return { data: entries, nextBefore: entries.length === filter.limit && last ? last.createdAt : null };
  });
}
