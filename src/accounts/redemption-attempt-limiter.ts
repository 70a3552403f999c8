import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { GatewayError } from '../core/gateway-error.js';

/** How many refused redemptions a user and a client address may make in a window, and how long the window is. */
export interface RedemptionAttemptPolicy {
  /** refused attempts per user within the window; then 429 until the window ends */
  failuresPerUser: number;
  /** refused attempts per client address within the window (higher: many people may share an address) */
  failuresPerAddress: number;
  /** window length in seconds, counted from the first refused attempt */
  windowSeconds: number;
}

/** Defaults: 10 refused codes per user and 50 per address in an hour; 140-bit codes make guessing hopeless anyway. */
export const defaultRedemptionAttemptPolicy: RedemptionAttemptPolicy = {
  failuresPerUser: 10,
  failuresPerAddress: 50,
  windowSeconds: 3_600,
};

/** Who is redeeming: the signed-in user and the client address. */
export interface RedemptionAttemptSubject {
  userId: string;
  address: string;
}

/**
 * Counts refused redemption attempts per user and per client address (rate-limiter-flexible, in memory or in Redis
 * when the gateway shares one) and refuses further attempts with 429 and Retry-After once either is used up.
 * Successful redemptions cost nothing, so a customer redeeming many bought codes is never slowed.
 */
export class RedemptionAttemptLimiter {
  private readonly perUser: RateLimiterAbstract;
  private readonly perAddress: RateLimiterAbstract;

  constructor(options: { redis?: Redis; policy?: RedemptionAttemptPolicy } = {}) {
    const policy = options.policy ?? defaultRedemptionAttemptPolicy;
    this.perUser = createLimiter(options.redis, {
      keyPrefix: 'gateway:redeem:user',
      points: policy.failuresPerUser,
      duration: policy.windowSeconds,
    });
    this.perAddress = createLimiter(options.redis, {
      keyPrefix: 'gateway:redeem:address',
      points: policy.failuresPerAddress,
      duration: policy.windowSeconds,
    });
  }

  /** Throws 429 `rate_limit_exceeded` with `Retry-After` when the user or the address has no refused attempts left. */
  async assertAllowed(subject: RedemptionAttemptSubject): Promise<void> {
    const [user, address] = await Promise.all([this.perUser.get(subject.userId), this.perAddress.get(subject.address)]);
    const waits = [
      user !== null && user.remainingPoints <= 0 ? user.msBeforeNext : 0,
      address !== null && address.remainingPoints <= 0 ? address.msBeforeNext : 0,
    ];
    const waitMs = Math.max(...waits);
    if (waitMs <= 0) return;
    const retryAfterSeconds = Math.max(1, Math.ceil(waitMs / 1000));
    throw new GatewayError(
      'rate_limit_exceeded',
      `Too many refused redemption codes. Retry after ${retryAfterSeconds} s.`,
      {
        headers: { 'retry-after': String(retryAfterSeconds) },
      },
    );
  }

  /** Counts one refused attempt against the user and the address. */
  async recordFailure(subject: RedemptionAttemptSubject): Promise<void> {
    await Promise.all([this.perUser.penalty(subject.userId, 1), this.perAddress.penalty(subject.address, 1)]);
  }
}

function createLimiter(
  redis: Redis | undefined,
  options: { keyPrefix: string; points: number; duration: number },
): RateLimiterAbstract {
  const memory = new RateLimiterMemory(options);
  // While Redis is unreachable, each node keeps counting on its own instead of letting every attempt through.
  return redis ? new RateLimiterRedis({ ...options, storeClient: redis, insuranceLimiter: memory }) : memory;
}
