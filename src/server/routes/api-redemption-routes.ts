import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { RedemptionAttemptLimiter } from '../../accounts/redemption-attempt-limiter.js';
import { auditActorOfCaller } from '../../accounts/audit-actor.js';
import {
  createRedemptionBatch,
  disableRedemptionCodes,
  maxRedemptionBatchSize,
} from '../../accounts/create-redemption-batch.js';
import { hashRedemptionCode } from '../../accounts/redemption-code.js';
import { formatMicroUnits, parseCurrencyAmount } from '../../billing/money.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { RedemptionCodeRecord } from '../../storage/account-admin-store.js';
import { requireAdmin, requireUser } from '../api/authenticate-api-caller.js';
import { encodeCreatedRedemptionCodesCsv, encodeStoredRedemptionCodesCsv } from '../api/encode-redemption-codes-csv.js';
import { parseApiInput } from '../api/parse-api-input.js';
import { encodeCursor, parseCursor, presentLedgerEntry } from '../api/present-api-records.js';
import { recordAdminAction } from '../api/record-admin-action.js';
import type { ApiRouteContext } from './api-routes.js';

/** Most rows one CSV export holds. */
const csvExportLimit = 100_000;

const createBatchSchema = z
  .object({
    /** currency units as a decimal string, e.g. "10.50" */
    amount: z.string().optional(),
    /** micro-units */
    amountMicroUnits: z.number().int().positive().optional(),
    count: z.number().int().min(1).max(maxRedemptionBatchSize),
    /** Unix milliseconds */
    expiresAt: z.number().int().positive().nullable().optional(),
    note: z.string().max(500).optional(),
  })
  .refine((value) => (value.amount === undefined) !== (value.amountMicroUnits === undefined), {
    message: 'give exactly one of amount or amountMicroUnits',
  });
const formatSchema = z.object({ format: z.enum(['json', 'csv']).default('json') });
const listSchema = z.object({
  batch: z.string().min(1).max(100).optional(),
  status: z.enum(['active', 'redeemed', 'disabled', 'expired']).optional(),
  format: z.enum(['json', 'csv']).default('json'),
  limit: z.coerce.number().int().min(1).max(1_000).default(100),
  cursor: z.string().optional(),
});
const redeemSchema = z.object({ code: z.string().min(1).max(200) });

/** The one answer for every code that does not redeem, so the answer never tells a used code from a wrong one. */
const refusedCodeMessage = 'This code cannot be redeemed: it is wrong, already used, expired or disabled.';

/**
 * Redemption codes: admins create batches (the full codes shown once, as JSON or CSV), list, export and disable them;
 * a signed-in user redeems a code once (`POST /api/redeem`), credited with a `redemption` ledger entry in the same
 * transaction as the code's compare-and-set. Refused attempts are limited per user and per client address.
 */
export function registerApiRedemptionRoutes(app: FastifyInstance, { services, api }: ApiRouteContext): void {
  const { billing, accountAdmin, gatewayStore } = api;
  const attempts = new RedemptionAttemptLimiter({ redis: billing.sharedRedis });

  app.post('/admin/redemption-codes', async (request, reply) => {
    requireAdmin(request.apiCaller);
    const { format } = parseApiInput(formatSchema, request.query);
    const input = parseApiInput(createBatchSchema, request.body);
    const batch = await createRedemptionBatch(
      accountAdmin,
      {
        amount: parseAmount(input),
        count: input.count,
        expiresAt: input.expiresAt ?? null,
        note: input.note ?? null,
        createdBy: auditActorOfCaller(request.apiCaller).actorLabel,
      },
      services.clock(),
      (action) => recordAdminAction(gatewayStore, request.apiCaller, action),
    );
    void reply.code(201);
    if (format === 'csv')
      return sendCsv(reply, `redemption-codes-${batch.batchId}.csv`, encodeCreatedRedemptionCodesCsv(batch));
    return batch;
  });

  app.get('/admin/redemption-codes', async (request, reply) => {
    requireAdmin(request.apiCaller);
    const query = parseApiInput(listSchema, request.query);
    const filter = { batchId: query.batch, status: query.status, now: services.clock() };
    if (query.format === 'csv') {
      const codes = await accountAdmin.listRedemptionCodes({ ...filter, limit: csvExportLimit });
      return sendCsv(reply, `redemption-codes-${query.batch ?? 'all'}.csv`, encodeStoredRedemptionCodesCsv(codes));
    }
    const codes = await accountAdmin.listRedemptionCodes({
      ...filter,
      limit: query.limit,
      before: parseCursor(query.cursor),
    });
    return { data: codes.map(presentRedemptionCode), nextCursor: encodeCursor(codes, query.limit) };
  });

  app.post<{ Params: { codeId: string } }>('/admin/redemption-codes/:codeId/disable', async (request) => {
    requireAdmin(request.apiCaller);
    const disabled = await disableRedemptionCodes(
      accountAdmin,
      { codeId: request.params.codeId },
      services.clock(),
      (action) => recordAdminAction(gatewayStore, request.apiCaller, action),
    );
    return { disabled };
  });

  app.post<{ Params: { batchId: string } }>('/admin/redemption-batches/:batchId/disable', async (request) => {
    requireAdmin(request.apiCaller);
    const { batchId } = request.params;
    const disabled = await disableRedemptionCodes(accountAdmin, { batchId }, services.clock(), (action) =>
      recordAdminAction(gatewayStore, request.apiCaller, action),
    );
    return { batchId, disabled };
  });

  app.post('/redeem', async (request) => {
    const user = requireUser(request.apiCaller);
    const { code } = parseApiInput(redeemSchema, request.body);
    const subject = { userId: user.id, address: request.ip };
    await attempts.assertAllowed(subject);
    const result = await billing.exclusive(() =>
      accountAdmin.redeemRedemptionCode({ codeHash: hashRedemptionCode(code), userId: user.id, now: services.clock() }),
    );
    if (!result) {
      await attempts.recordFailure(subject);
      request.log.warn({ userId: user.id, clientAddress: subject.address }, 'redemption code refused');
      throw new GatewayError('invalid_request_error', refusedCodeMessage, { param: 'code' });
    }
    // Every node (this one at once, others through Redis or their next revision check) sees the new balance.
    await billing.announceChange();
    return {
      amount: result.code.amount,
      amountText: formatMicroUnits(result.code.amount),
      balance: result.balance,
      debt: result.debt,
      entry: presentLedgerEntry(result.entry),
      repayment: result.repayment ? presentLedgerEntry(result.repayment) : null,
    };
  });
}

function parseAmount(input: { amount?: string; amountMicroUnits?: number }): number {
  let amount: number;
  try {
    amount = input.amountMicroUnits ?? parseCurrencyAmount(input.amount ?? '');
  } catch (error) {
    throw new GatewayError('invalid_request_error', error instanceof Error ? error.message : 'Invalid amount', {
      param: 'amount',
    });
  }
  if (amount <= 0)
    throw new GatewayError('invalid_request_error', 'The amount must be above zero.', { param: 'amount' });
  return amount;
}

function presentRedemptionCode(code: RedemptionCodeRecord) {
  return { ...code, amountText: formatMicroUnits(code.amount) };
}

function sendCsv(reply: FastifyReply, fileName: string, body: string): string {
  void reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName}"`);
  return body;
}
