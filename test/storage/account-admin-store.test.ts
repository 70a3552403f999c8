// The account-administration store on both engines: redemption compare-and-set under concurrency, listing, status.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashConsoleToken } from '../../src/accounts/console-token.js';
import {
  generateRedemptionCode,
  hashRedemptionCode,
  redemptionCodeDisplayPrefix,
} from '../../src/accounts/redemption-code.js';
import type { AccountAdminStore } from '../../src/storage/account-admin-store.js';
import type { BillingStore } from '../../src/storage/billing-store.js';
import { createDatabase, type CreatedDatabase } from '../../src/storage/create-database.js';
import type { GatewayStore } from '../../src/storage/gateway-store.js';
import { createAccountAdminStore } from '../../src/storage/kysely-account-admin-store.js';
import { createBillingStore } from '../../src/storage/kysely-billing-store.js';
import { createGatewayStore } from '../../src/storage/kysely-gateway-store.js';
import { createSignInStore } from '../../src/storage/kysely-sign-in-store.js';
import { storageTestEngines, type TestDatabase } from '../helpers/storage-test-engines.js';

const engines = storageTestEngines('account-admin-store');

for (const engine of engines) {
  describe.runIf(engine.run)(`account admin store on ${engine.name}`, () => {
    let testDatabase: TestDatabase;
    let opened: CreatedDatabase;
    let gatewayStore: GatewayStore;
    let billingStore: BillingStore;
    let store: AccountAdminStore;

    beforeEach(async () => {
      testDatabase = await engine.create();
      opened = createDatabase(testDatabase.url);
      gatewayStore = createGatewayStore({ database: opened });
      await gatewayStore.migrate();
      billingStore = createBillingStore({ database: opened });
      store = createAccountAdminStore(opened.database);
    });

    afterEach(async () => {
      await opened.database.destroy();
      await testDatabase.drop();
    });

    async function createBatch(
      count: number,
      options: { amount?: number; expiresAt?: number | null } = {},
    ): Promise<{ batchId: string; codes: Array<{ id: string; code: string }> }> {
      const batchId = `rcb_${Math.random().toString(36).slice(2)}`;
      const codes = Array.from({ length: count }, (_, index) => ({
        id: `${batchId}_${index}`,
        code: generateRedemptionCode(),
      }));
      await store.createRedemptionBatch({
        batchId,
        codes: codes.map((code) => ({
          id: code.id,
          codeHash: hashRedemptionCode(code.code),
          codePrefix: redemptionCodeDisplayPrefix(code.code),
        })),
        amount: options.amount ?? 1_000,
        note: null,
        expiresAt: options.expiresAt ?? null,
        createdBy: 'admin token',
        createdAt: 1_000,
      });
      return { batchId, codes };
    }

    it('credits a code once when 20 redemptions race, and keeps balances equal to the ledger', async () => {
      const users = await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          gatewayStore.createUser({
            email: `racer${index}@example.test`,
            displayName: 'Racer',
            role: 'user',
            passwordHash: null,
          }),
        ),
      );
      const { codes } = await createBatch(1, { amount: 5_000 });
      const results = await Promise.all(
        users.map((user) =>
          store.redeemRedemptionCode({ codeHash: hashRedemptionCode(codes[0]!.code), userId: user.id, now: 2_000 }),
        ),
      );
      expect(results.filter((result) => result !== undefined)).toHaveLength(1);
      expect(await billingStore.findBalanceMismatches()).toEqual([]);
      const balances = await Promise.all(users.map((user) => billingStore.readBalance(user.id)));
      expect(balances.reduce<number>((sum, balance) => sum + (balance ?? 0), 0)).toBe(5_000);
    });

    it('lists by batch and status, expired computed, and disables only active codes', async () => {
      const user = await gatewayStore.createUser({
        email: 'lister@example.test',
        displayName: 'Lister',
        role: 'user',
        passwordHash: null,
      });
      const { batchId, codes } = await createBatch(3, { expiresAt: 10_000 });
      await createBatch(2);
      expect(
        await store.redeemRedemptionCode({ codeHash: hashRedemptionCode(codes[0]!.code), userId: user.id, now: 5_000 }),
      ).toMatchObject({ balance: 1_000, entry: { kind: 'redemption' } });
      expect(
        await store.redeemRedemptionCode({
          codeHash: hashRedemptionCode(codes[1]!.code),
          userId: user.id,
          now: 10_000,
        }),
      ).toBeUndefined();
      expect(
        (await store.listRedemptionCodes({ batchId, limit: 10, now: 5_000 })).map((code) => code.status).sort(),
      ).toEqual(['active', 'active', 'redeemed']);
      expect(await store.listRedemptionCodes({ batchId, status: 'expired', limit: 10, now: 10_000 })).toHaveLength(2);
      expect(await store.listRedemptionCodes({ status: 'active', limit: 10, now: 10_000 })).toHaveLength(2);
      expect(await store.disableRedemptionCodes({ batchId }, 11_000)).toBe(2);
      expect(await store.disableRedemptionCodes({ codeId: codes[0]!.id }, 11_000)).toBe(0);
      expect(
        (await store.listRedemptionCodes({ batchId, status: 'disabled', limit: 10, now: 11_000 }))[0],
      ).toMatchObject({ disabledAt: 11_000 });
    });

    it('disables a user with their sessions, and counts admins', async () => {
      expect(await store.countAdmins()).toBe(0);
      await gatewayStore.createUser({
        email: 'boss@example.test',
        displayName: 'Boss',
        role: 'admin',
        passwordHash: null,
      });
      expect(await store.countAdmins()).toBe(1);
      const user = await gatewayStore.createUser({
        email: 'leaver@example.test',
        displayName: 'Leaver',
        role: 'user',
        passwordHash: null,
      });
      const signInStore = createSignInStore({ database: opened });
      await signInStore.createSession({
        tokenHash: hashConsoleToken('session'),
        userId: user.id,
        expiresAt: Date.now() + 60_000,
        userAgent: null,
        clientIp: null,
      });
      const revisionBefore = await gatewayStore.readRoutingRevision();
      expect(await store.setUserStatus(user.id, 'disabled')).toBe(true);
      expect(await gatewayStore.readRoutingRevision()).toBeGreaterThan(revisionBefore);
      expect(await signInStore.findSession(hashConsoleToken('session'), Date.now())).toBeUndefined();
      expect((await billingStore.findUserById(user.id))?.status).toBe('disabled');
      expect(await store.setUserStatus('usr_missing', 'disabled')).toBe(false);
    });
  });
}
