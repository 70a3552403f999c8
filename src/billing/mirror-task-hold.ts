import { formatMicroUnits } from './money.js';
import type { StoredBalance } from '../storage/billing-records.js';
import type { BillingRuntime } from './billing-runtime.js';

/**
 * Why a task hold of `amount` micro-units cannot be taken as this node sees the money (debt, balance after the holds
 * of requests in flight, the key's cap), else undefined. The store's conditional update is the durable check.
 */
export function taskHoldShortfall(
  runtime: BillingRuntime,
  subject: { userId: string; apiKeyId: string },
  amount: number,
): string | undefined {
  const user = runtime.memory.user(subject.userId);
  if (user.debt > 0) {
    return `You exceeded your current quota: your account has an unpaid debt of ${formatMicroUnits(user.debt)}. Top up your balance: the debt is paid first, then requests are accepted again.`;
  }
  if (user.balance - user.held < amount)
    return 'You exceeded your current quota: the balance cannot cover this video. Top up your balance or ask for a shorter video.';
  const key = runtime.memory.key(subject.apiKeyId);
  if (key && key.spendingCap !== null && key.spent + key.held + amount > key.spendingCap)
    return 'You exceeded your current quota: this API key reached its spending cap.';
  return undefined;
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
