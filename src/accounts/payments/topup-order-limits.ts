import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { GatewayError } from '../../core/gateway-error.js';
import type { TopupOrderStore } from '../../storage/topup-order-store.js';
import type { PaymentConfig } from './payment-config.js';

/**
 * The limits on creating top-up orders, checked before any payment-provider call: orders per minute per user and per
 * client address (counted in this process's memory), and pending orders per user (counted in the database, one
 * creation per user at a time on this node so parallel requests cannot all pass the count).
 */
export class TopupOrderLimits {
  private readonly perUser: RateLimiterMemory | undefined;
  private readonly perAddress: RateLimiterMemory | undefined;
  private readonly userTurns = new Map<string, Promise<void>>();

  constructor(
    private readonly config: PaymentConfig,
    private readonly store: TopupOrderStore,
  ) {
    this.perUser = perMinute('topup-orders-user', config.ordersPerMinutePerUser);
    this.perAddress = perMinute('topup-orders-address', config.ordersPerMinutePerAddress);
  }

  /** Counts one order for the user and the address, or throws 429 `rate_limit_exceeded` with `Retry-After`. */
  async takeOrderSlot(userId: string, clientAddress: string): Promise<void> {
    await take(this.perUser, userId, `at most ${this.config.ordersPerMinutePerUser} top-up orders per minute`);
    await take(
      this.perAddress,
      clientAddress,
      `at most ${this.config.ordersPerMinutePerAddress} top-up orders per minute from one address`,
    );
  }

  /** Throws 429 `rate_limit_exceeded` when the user already has the most pending orders allowed. */
  async refuseTooManyPending(userId: string): Promise<void> {
    const cap = this.config.maxPendingOrdersPerUser;
    if (cap <= 0) return;
    const pending = await this.store.countPendingOrders(userId);
    if (pending < cap) return;
    throw new GatewayError(
      'rate_limit_exceeded',
      `You have ${pending} top-up orders waiting for payment (at most ${cap}). Pay or cancel one, or wait until it expires, then retry.`,
      { headers: { 'retry-after': '60' } },
    );
  }

  /** Runs `work` after the user's earlier order creations on this node have finished. */
  async withUserTurn<T>(userId: string, work: () => Promise<T>): Promise<T> {
    const previous = this.userTurns.get(userId);
    let finish: () => void = () => undefined;
    const turn = new Promise<void>((resolve) => (finish = resolve));
    const queued = (previous ?? Promise.resolve()).then(() => turn);
    this.userTurns.set(userId, queued);
    await previous;
    try {
      return await work();
    } finally {
      finish();
      if (this.userTurns.get(userId) === queued) this.userTurns.delete(userId);
    }
  }
}

function perMinute(keyPrefix: string, points: number): RateLimiterMemory | undefined {
  return points > 0 ? new RateLimiterMemory({ keyPrefix, points, duration: 60 }) : undefined;
}

async function take(counter: RateLimiterMemory | undefined, subject: string, rule: string): Promise<void> {
  if (counter === undefined) return;
  try {
    await counter.consume(subject, 1);
  } catch (error) {
    if (!(error instanceof RateLimiterRes)) throw error;
    const retryAfterSeconds = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
    throw new GatewayError(
      'rate_limit_exceeded',
      `Too many top-up orders: ${rule}. Retry after ${retryAfterSeconds} s.`,
      { headers: { 'retry-after': String(retryAfterSeconds) } },
    );
  }
}
