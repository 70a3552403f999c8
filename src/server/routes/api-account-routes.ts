import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { grantDefaultGroups } from '../../accounts/grant-default-groups.js';
import { hashPassword } from '../../accounts/password-hash.js';
import { formatMicroUnits, parseCurrencyAmount } from '../../billing/money.js';
import { GatewayError } from '../../core/gateway-error.js';
import { requireAdmin, requireUser, type ApiCaller } from '../api/authenticate-api-caller.js';
import { parseApiInput } from '../api/parse-api-input.js';
import { refuseWhenHashingBusy } from '../api/refuse-when-hashing-busy.js';
import { encodeCursor, parseCursor, presentLedgerEntry, presentUser } from '../api/present-api-records.js';
import type { ApiRouteContext } from './api-routes.js';
import { recordAdminAction } from '../api/record-admin-action.js';

const pageSchema = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(50),
  cursor: z.string().optional(),
});
const creditSchema = z
  .object({
    kind: z.enum(['top-up', 'bonus', 'adjustment', 'refund', 'redemption']),
    /** currency units as a decimal string, e.g. "10.50" */
    amount: z.string().optional(),
    /** micro-units */
    amountMicroUnits: z.number().int().optional(),
    description: z.string().max(500).default(''),
    reference: z.string().max(200).optional(),
  })
  .refine((value) => (value.amount === undefined) !== (value.amountMicroUnits === undefined), {
    message: 'give exactly one of amount or amountMicroUnits',
  });
const createUserSchema = z.object({
  email: z.string().email(),
  displayName: z.string().min(1).max(100).optional(),
  password: z.string().min(8).max(200).optional(),
  role: z.enum(['admin', 'user']).default('user'),
});
const profileSchema = z.object({ displayName: z.string().trim().min(1).max(100) });
const limitsSchema = z.object({
  requestsPerMinute: z.number().int().min(0).nullable(),
  tokensPerMinute: z.number().int().min(0).nullable(),
  maxConcurrentRequests: z.number().int().min(0).nullable(),
});

/** The caller's account (me, balance, ledger) and, for admins, users, credits and per-user limits. */
export function registerApiAccountRoutes(app: FastifyInstance, { services, api }: ApiRouteContext): void {
  const { billing, gatewayStore } = api;

  function balanceOf(userId: string) {
    const money = billing.memory.user(userId);
    return {
      userId,
      balance: money.balance,
      balanceText: formatMicroUnits(money.balance),
      held: money.held,
      available: money.balance - money.held,
      debt: money.debt,
      debtText: formatMicroUnits(money.debt),
      unit: 'micro-units (1 currency unit = 1,000,000)',
    };
  }

  /** A user the caller may see: themselves, or anyone for admins; others are reported as missing. */
  async function visibleUserId(caller: ApiCaller, userId: string): Promise<string> {
    if (!caller.isAdmin && caller.user?.id !== userId) throw new GatewayError('not_found', 'No such user.');
    if (!(await billing.store.findUserById(userId))) throw new GatewayError('not_found', 'No such user.');
    return userId;
  }

  app.get('/me', async (request) => {
    const { user, isAdmin } = request.apiCaller;
    return { user: user ? presentUser(user) : null, isAdmin, balance: user ? balanceOf(user.id) : null };
  });

  app.patch('/me', async (request) => {
    const user = requireUser(request.apiCaller);
    const { displayName } = parseApiInput(profileSchema, request.body);
    await gatewayStore.setUserDisplayName(user.id, displayName);
    return {
      user: presentUser({ ...user, displayName }),
      isAdmin: request.apiCaller.isAdmin,
      balance: balanceOf(user.id),
    };
  });

  app.get('/balance', async (request) => balanceOf(requireUser(request.apiCaller).id));

  app.get('/ledger', async (request) => {
    const page = parseApiInput(pageSchema, request.query);
    const entries = await billing.store.listLedgerEntries(requireUser(request.apiCaller).id, {
      limit: page.limit,
      before: parseCursor(page.cursor),
    });
    return { data: entries.map(presentLedgerEntry), nextCursor: encodeCursor(entries, page.limit) };
  });

  app.get('/users', async (request) => {
    requireAdmin(request.apiCaller);
    const [users, groups, grants] = await Promise.all([
      gatewayStore.listUsers(),
      gatewayStore.listModelGroups(),
      gatewayStore.listUserGroupGrants(),
    ]);
    const groupNames = new Map(groups.map((group) => [group.id, group.name]));
    const groupsOf = (userId: string) =>
      grants
        .filter((grant) => grant.userId === userId)
        .map((grant) => ({ id: grant.groupId, name: groupNames.get(grant.groupId) ?? grant.groupId }))
        .sort((left, right) => left.name.localeCompare(right.name));
    return {
      data: users.map((user) => ({
        ...presentUser(user),
        hasPassword: user.passwordHash !== null,
        balance: balanceOf(user.id),
        limits: billing.memory.user(user.id).limits,
        groups: groupsOf(user.id),
      })),
    };
  });

  app.post('/users', async (request, reply) => {
    requireAdmin(request.apiCaller);
    const input = parseApiInput(createUserSchema, request.body);
    const email = input.email.toLowerCase();
    const passwordHash = input.password ? await hashPassword(input.password).catch(refuseWhenHashingBusy) : null;
    const user = await billing
      .exclusive(() =>
        gatewayStore.createUser({
          email,
          displayName: input.displayName ?? email.split('@')[0] ?? email,
          role: input.role,
          passwordHash,
        }),
      )
      .catch((error: unknown) => {
        throw new GatewayError(
          'invalid_request_error',
          error instanceof Error ? error.message : 'The user could not be created',
          { param: 'email' },
        );
      });
    const groups = await billing.exclusive(() => grantDefaultGroups(gatewayStore, user.id, services.config));
    await recordAdminAction(gatewayStore, request.apiCaller, {
      action: 'user.create',
      targetType: 'user',
      targetId: user.id,
      details: { email, role: input.role, groups: groups.map((group) => group.name) },
    });
    await services.routing.refresh();
    await billing.announceChange();
    void reply.code(201);
    return { ...presentUser(user), balance: balanceOf(user.id), groups: groups.map((group) => group.name) };
  });

  app.get<{ Params: { userId: string } }>('/users/:userId/balance', async (request) =>
    balanceOf(await visibleUserId(request.apiCaller, request.params.userId)),
  );

  app.get<{ Params: { userId: string } }>('/users/:userId/ledger', async (request) => {
    const userId = await visibleUserId(request.apiCaller, request.params.userId);
    const page = parseApiInput(pageSchema, request.query);
    const entries = await billing.store.listLedgerEntries(userId, {
      limit: page.limit,
      before: parseCursor(page.cursor),
    });
    return { data: entries.map(presentLedgerEntry), nextCursor: encodeCursor(entries, page.limit) };
  });

  app.post<{ Params: { userId: string } }>('/users/:userId/credits', async (request, reply) => {
    requireAdmin(request.apiCaller);
    const userId = await visibleUserId(request.apiCaller, request.params.userId);
    const input = parseApiInput(creditSchema, request.body);
    let amount: number;
    try {
      amount = input.amountMicroUnits ?? parseCurrencyAmount(input.amount ?? '');
    } catch (error) {
      throw new GatewayError('invalid_request_error', error instanceof Error ? error.message : 'Invalid amount', {
        param: 'amount',
      });
    }
    if (amount === 0)
      throw new GatewayError('invalid_request_error', 'The amount must not be zero.', { param: 'amount' });
    const result = await billing
      .changeBalance({
        userId,
        kind: input.kind,
        amount,
        description: input.description,
        reference: input.reference ?? `admin:${request.apiCaller.user?.id ?? 'token'}`,
      })
      .catch((error: unknown) => {
        throw new GatewayError(
          'invalid_request_error',
          error instanceof Error ? error.message : 'The balance change failed',
          { param: 'amount' },
        );
      });
    await recordAdminAction(gatewayStore, request.apiCaller, {
      action: 'user.credit',
      targetType: 'user',
      targetId: userId,
      details: { kind: input.kind, amount, description: input.description, ledgerEntryId: result.entry.id },
    });
    void reply.code(201);
    return {
      entry: presentLedgerEntry(result.entry),
      balance: result.balance,
      debt: result.debt,
      repayment: result.repayment ? presentLedgerEntry(result.repayment) : null,
    };
  });

  app.put<{ Params: { userId: string } }>('/users/:userId/limits', async (request) => {
    requireAdmin(request.apiCaller);
    const userId = await visibleUserId(request.apiCaller, request.params.userId);
    const limits = parseApiInput(limitsSchema, request.body);
    await billing.exclusive(() => billing.store.setUserLimits(userId, limits));
    await recordAdminAction(gatewayStore, request.apiCaller, {
      action: 'user.limits.set',
      targetType: 'user',
      targetId: userId,
      details: { limits },
    });
    await billing.announceChange();
    return { userId, limits };
  });
}
