import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GatewayStore } from '../storage/gateway-store.js';
import { createGatewayStore } from '../storage/kysely-gateway-store.js';
import { checkPasswordSignIn } from './check-password-sign-in.js';
import { LoginAttemptLimiter } from './login-attempt-limiter.js';
import { createPasswordHasher, type PasswordHasher } from './password-hash.js';

/** The real hasher, counting the hashes each check costs. */
function createCountingHasher(): { hasher: PasswordHasher; verifiedAgainst: Array<string | null> } {
  const real = createPasswordHasher();
  const verifiedAgainst: Array<string | null> = [];
  return {
    verifiedAgainst,
    hasher: {
      hash: (password) => real.hash(password),
      verify: (password, stored) => {
        verifiedAgainst.push(stored);
        return real.verify(password, stored);
      },
    },
  };
}

const address = '192.0.2.1';

describe('checkPasswordSignIn', () => {
  let store: GatewayStore;

  beforeEach(async () => {
    store = createGatewayStore({ databaseUrl: 'sqlite::memory:' });
    await store.migrate();
  });

  afterEach(async () => {
    await store.close();
  });

  it('costs one password hash on every failure path, so time does not tell whether an account exists', async () => {
    const { hasher, verifiedAgainst } = createCountingHasher();
    const passwordHash = await hasher.hash('right password');
    await store.createUser({ email: 'ada@example.com', displayName: 'Ada', role: 'user', passwordHash });
    await store.createUser({
      email: 'off@example.com',
      displayName: 'Off',
      role: 'user',
      passwordHash,
      status: 'disabled',
    });
    await store.createUser({ email: 'social@example.com', displayName: 'Social', role: 'user', passwordHash: null });

    const attempts = [
      { normalisedEmail: 'nobody@example.com', password: 'right password' },
      { normalisedEmail: 'ada@example.com', password: 'wrong password' },
      { normalisedEmail: 'off@example.com', password: 'right password' },
      { normalisedEmail: 'social@example.com', password: 'right password' },
    ];
    for (const attempt of attempts) {
      const before = verifiedAgainst.length;
      expect(await checkPasswordSignIn(store, hasher, new LoginAttemptLimiter(), { ...attempt, address })).toEqual({
        user: undefined,
        needsRehash: false,
      });
      expect(verifiedAgainst.length - before, attempt.normalisedEmail).toBe(1);
    }
    // The unknown email and the account without a password were checked against the dummy hash.
    expect(verifiedAgainst.filter((stored) => stored === null)).toHaveLength(2);

    const signedIn = await checkPasswordSignIn(store, hasher, new LoginAttemptLimiter(), {
      normalisedEmail: 'ada@example.com',
      password: 'right password',
      address,
    });
    expect(signedIn.user?.email).toBe('ada@example.com');
  });
});
