import { describe, expect, it } from 'vitest';
import { GatewayError } from '../core/gateway-error.js';
import { requireRoomForAnotherKey } from './require-room-for-another-key.js';

describe('requireRoomForAnotherKey', () => {
  it('refuses an owner at the cap with 400 naming the cap', () => {
    expect(() => requireRoomForAnotherKey('owner', 49, 50)).not.toThrow();
    const refusal = (() => {
      try {
        requireRoomForAnotherKey('owner', 50, 50);
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(refusal).toBeInstanceOf(GatewayError);
    expect((refusal as GatewayError).status).toBe(400);
    expect((refusal as GatewayError).message).toMatch(/GATEWAY_MAX_KEYS_PER_USER is 50/);
  });

  it('lets administrators past the cap, and 0 means no cap', () => {
    expect(() => requireRoomForAnotherKey('admin', 500, 50)).not.toThrow();
    expect(() => requireRoomForAnotherKey('owner', 10_000, 0)).not.toThrow();
  });
});
