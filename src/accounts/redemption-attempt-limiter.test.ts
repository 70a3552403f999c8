import { describe, expect, it } from 'vitest';
import { GatewayError } from '../core/gateway-error.js';
import { RedemptionAttemptLimiter } from './redemption-attempt-limiter.js';

describe('RedemptionAttemptLimiter', () => {
  it('refuses a user after their refused attempts, and an address after its own, with Retry-After', async () => {
    const limiter = new RedemptionAttemptLimiter({
      policy: { failuresPerUser: 2, failuresPerAddress: 3, windowSeconds: 60 },
    });
    const first = { userId: 'usr_a', address: '192.0.2.1' };
    await limiter.recordFailure(first);
    await limiter.assertAllowed(first);
    await limiter.recordFailure(first);
    const refused = await limiter.assertAllowed(first).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(GatewayError);
    expect((refused as GatewayError).code).toBe('rate_limit_exceeded');
    expect(Number((refused as GatewayError).headers['retry-after'])).toBeGreaterThan(0);

    const second = { userId: 'usr_b', address: '192.0.2.1' };
    await limiter.assertAllowed(second);
    await limiter.recordFailure(second);
    await expect(limiter.assertAllowed(second)).rejects.toThrow(/Retry after/);
    await limiter.assertAllowed({ userId: 'usr_c', address: '192.0.2.2' });
  });
});
