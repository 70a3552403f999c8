import { GatewayError } from '../core/gateway-error.js';
import { formatMicroUnits } from './money.js';
import type { StoredBalance } from '../storage/billing-records.js';
import type { BillingRuntime } from './billing-runtime.js';

const debtRefusal = (debt: number): string =>
  `You exceeded your current quota: your account has an unpaid debt${debt > 0 ? ` of ${formatMicroUnits(debt)}` : ''}. Top up your balance: the debt is paid first, then requests are accepted again.`;
const balanceRefusal =
  'You exceeded your current quota: the balance cannot cover this video. Top up your balance or ask for a shorter video.';
const capRefusal = 'You exceeded your current quota: this API key reached its spending cap.';

/** A task's money reserved until its durable hold is written; `release` gives it back (after the write, either way). */
export interface TaskReservation {
  release(): Promise<void>;
}

/**
 * Reserves `amount` micro-units for a task about to be held durably, by the same rule as a request's hold: in this
 * node's memory (debt, balance after the holds of requests in flight, the key's cap), and with Redis in the shared
 * wallet too, so holds of requests on other nodes count. Throws 429 `insufficient_quota` when it cannot be covered.
 * The store's conditional update stays the durable check; release the reservation once the hold is written (the
 * wallet then has the new stored balance) or refused.
 */
export async function reserveTaskHold(
  runtime: BillingRuntime,
  subject: { userId: string; apiKeyId: string },
  amount: number,
): Promise<TaskReservation> {
  const user = runtime.memory.user(subject.userId);
  const key = runtime.memory.key(subject.apiKeyId);
  if (key && key.spendingCap !== null && key.spent + key.held + amount > key.spendingCap)
    throw new GatewayError('insufficient_quota', capRefusal);
  const wallet = runtime.wallet;
  if (!wallet) {
    if (user.debt > 0) throw new GatewayError('insufficient_quota', debtRefusal(user.debt));
    if (user.balance - user.held < amount) throw new GatewayError('insufficient_quota', balanceRefusal);
    return { release: () => Promise.resolve() };
  }
  const walletKey = { apiKeyId: subject.apiKeyId, spendingCap: key?.spendingCap ?? null };
  let outcome = await wallet.hold(subject.userId, amount, walletKey);
  if (outcome === 'insufficient' || outcome === 'debt') {
    // A top-up made a moment ago may not have reached Redis yet.
    await runtime.refresh(false);
    outcome = await wallet.hold(subject.userId, amount, walletKey);
  }
  if (outcome === 'debt') throw new GatewayError('insufficient_quota', debtRefusal(user.debt));
  if (outcome === 'cap') throw new GatewayError('insufficient_quota', capRefusal);
  if (outcome !== 'held') throw new GatewayError('insufficient_quota', balanceRefusal);
  return {
    release: () =>
      wallet
        .release(subject.userId, amount, subject.apiKeyId)
        .catch((error: unknown) =>
          runtime.options.logger.warn(
            { err: error },
            'releasing a task reservation in redis failed; reconciliation releases it',
          ),
        ),
  };
}

/**
 * Runs a task-hold write (hold, settlement or release, already durable when `write` resolves) while no billing reload
 * or batch runs, then moves the in-memory balance and key spend by the same amounts, so memory equals the database
 * plus pending charges whichever comes first; with Redis the shared wallet gets the new stored balance.
 * `balanceChange` and `keySpendChange` are signed micro-units (a hold: −amount and +amount).
 */
export async function writeTaskHoldChange<Result>(
  runtime: BillingRuntime,
  write: () => Promise<Result>,
  changeOf: (
    result: Result,
  ) =>
    | { userId: string; apiKeyId: string; balanceChange: number; keySpendChange: number; stored: StoredBalance }
    | undefined,
): Promise<Result> {
  const { result, stored } = await runtime.exclusive(async () => {
    const written = await write();
    const change = changeOf(written);
    if (change === undefined) return { result: written, stored: undefined };
    runtime.memory.user(change.userId).balance += change.balanceChange;
    const key = runtime.memory.key(change.apiKeyId);
    if (key) key.spent += change.keySpendChange;
    return { result: written, stored: change.stored };
  });
  if (stored && runtime.wallet) {
    await runtime.wallet
      .apply(stored)
      .catch((error: unknown) => runtime.options.logger.warn({ err: error }, 'copying a task hold to redis failed'));
  }
  return result;
}
