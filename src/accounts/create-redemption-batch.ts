import { formatMicroUnits } from '../billing/money.js';
import { createRecordId } from '../core/create-record-id.js';
import { GatewayError } from '../core/gateway-error.js';
import type { AccountAdminStore } from '../storage/account-admin-store.js';
import type { AdminAction } from './audit-actor.js';
import { generateRedemptionCode, hashRedemptionCode, redemptionCodeDisplayPrefix } from './redemption-code.js';

/** Most codes one batch may hold. */
export const maxRedemptionBatchSize = 1_000;

/** One code of a new batch, with its full text (shown once; only its hash is stored). */
export interface CreatedRedemptionCode {
  id: string;
  code: string;
  codePrefix: string;
}

/** A batch just created, with every full code. */
export interface CreatedRedemptionBatch {
  batchId: string;
  /** micro-units each code credits */
  amount: number;
  amountText: string;
  count: number;
  /** Unix milliseconds, or null for never */
  expiresAt: number | null;
  note: string | null;
  createdAt: number;
  codes: CreatedRedemptionCode[];
}

/**
 * Creates a batch of redemption codes for POST /api/admin/redemption-codes and `gateway redemption create`: the amount
 * must be above zero, the count 1 to 1000 and the expiry in the future (400 naming the field otherwise); stores only
 * the codes' hashes and writes `redemption.batch.create` to the audit log.
 */
export async function createRedemptionBatch(
  accountAdmin: Pick<AccountAdminStore, 'createRedemptionBatch'>,
  request: { amount: number; count: number; expiresAt: number | null; note: string | null; createdBy: string },
  now: number,
  recordAction: (action: AdminAction) => Promise<void>,
): Promise<CreatedRedemptionBatch> {
  const { amount, count, expiresAt, note, createdBy } = request;
  if (!(amount > 0))
    throw new GatewayError('invalid_request_error', 'The amount must be above zero.', { param: 'amount' });
  if (!Number.isInteger(count) || count < 1 || count > maxRedemptionBatchSize)
    throw new GatewayError('invalid_request_error', `count must be 1 to ${maxRedemptionBatchSize}.`, {
      param: 'count',
    });
  if (expiresAt !== null && expiresAt <= now)
    throw new GatewayError('invalid_request_error', 'expiresAt must be in the future (Unix milliseconds).', {
      param: 'expiresAt',
    });
  const batchId = createRecordId('rcb', now);
  const codes: CreatedRedemptionCode[] = Array.from({ length: count }, () => {
    const code = generateRedemptionCode();
    return { id: createRecordId('rcd', now), code, codePrefix: redemptionCodeDisplayPrefix(code) };
  });
  await accountAdmin.createRedemptionBatch({
    batchId,
    codes: codes.map((code) => ({ id: code.id, codeHash: hashRedemptionCode(code.code), codePrefix: code.codePrefix })),
    amount,
    note,
    expiresAt,
    createdBy,
    createdAt: now,
  });
  await recordAction({
    action: 'redemption.batch.create',
    targetType: 'redemption-batch',
    targetId: batchId,
    details: { amount, count, expiresAt, note },
  });
  return { batchId, amount, amountText: formatMicroUnits(amount), count, expiresAt, note, createdAt: now, codes };
}

/**
 * Disables the active codes of a batch (`redemption.batch.disable`) or one code (`redemption.code.disable`) and
 * audits it; an unknown batch or a code that is not active is 404. Returns how many codes changed.
 */
export async function disableRedemptionCodes(
  accountAdmin: Pick<AccountAdminStore, 'disableRedemptionCodes' | 'listRedemptionCodes'>,
  target: { batchId: string } | { codeId: string },
  now: number,
  recordAction: (action: AdminAction) => Promise<void>,
): Promise<number> {
  const disabled = await accountAdmin.disableRedemptionCodes(target, now);
  if ('codeId' in target) {
    if (disabled === 0) throw new GatewayError('not_found', 'No active redemption code with this id.');
    await recordAction({
      action: 'redemption.code.disable',
      targetType: 'redemption-code',
      targetId: target.codeId,
      details: {},
    });
    return disabled;
  }
  if (
    disabled === 0 &&
    (await accountAdmin.listRedemptionCodes({ batchId: target.batchId, limit: 1, now })).length === 0
  )
    throw new GatewayError('not_found', 'No redemption batch with this id.');
  await recordAction({
    action: 'redemption.batch.disable',
    targetType: 'redemption-batch',
    targetId: target.batchId,
    details: { disabled },
  });
  return disabled;
}
