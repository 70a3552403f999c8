import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GatewayStore } from '../../src/storage/gateway-store.js';
import { createBillingStore } from '../../src/storage/kysely-billing-store.js';
import { createGatewayStore } from '../../src/storage/kysely-gateway-store.js';
import { createSignInStore } from '../../src/storage/kysely-sign-in-store.js';
import { IdentityTakenError, type SignInStore } from '../../src/storage/sign-in-store.js';
import { storageTestEngines, type TestDatabase } from '../helpers/storage-test-engines.js';

// Later than 2^31 so a timestamp squeezed through a 32-bit integer, or left as a string, would show.
const startTime = 1_767_225_600_000;

const engines = storageTestEngines('gateway-sign-in-store');

for (const engine of engines) {
  describe.runIf(engine.run)(`sign-in store on ${engine.name}`, () => {
    let database: TestDatabase;
    let gatewayStore: GatewayStore;
    let store: SignInStore;
    let now = startTime;

    beforeEach(async () => {
      now = startTime;
      database = await engine.create();
      gatewayStore = createGatewayStore({ databaseUrl: database.url });
      await gatewayStore.migrate();
      store = createSignInStore({ databaseUrl: database.url, clock: () => now });
    });

    afterEach(async () => {
      await store.close();
      await gatewayStore.close();
      await database.drop();
    });

    it('keeps (provider, subject) unique and never deletes the last way in of a user without a password', async () => {
      const user = await gatewayStore.createUser({
        email: 'social@example.test',
        displayName: 'Social',
        role: 'user',
        passwordHash: null,
      });
      const github = await store.createIdentity({
        userId: user.id,
        provider: 'github',
        subject: '42',
        email: 'social@example.test',
        displayName: 'octo',
      });
      expect(await store.findIdentity('github', '42')).toEqual({
        ...github,
        createdAt: startTime,
        lastUsedAt: startTime,
      });
      await expect(
        store.createIdentity({ userId: user.id, provider: 'github', subject: '42', email: null, displayName: 'again' }),
      ).rejects.toBeInstanceOf(IdentityTakenError);

      expect(await store.deleteIdentity(user.id, github.id)).toEqual({ removed: false, lastWayIn: true });
      const oidc = await store.createIdentity({
        userId: user.id,
        provider: 'oidc',
        subject: 'https://id.example 7',
        email: null,
        displayName: 'seven',
      });
      expect(await store.deleteIdentity(user.id, github.id)).toEqual({ removed: true, lastWayIn: false });
      expect((await store.listIdentities(user.id)).map((identity) => identity.id)).toEqual([oidc.id]);

      const other = await gatewayStore.createUser({
        email: 'other@example.test',
        displayName: 'Other',
        role: 'user',
        passwordHash: 'argon2-hash',
      });
      expect(await store.deleteIdentity(other.id, oidc.id)).toEqual({ removed: false, lastWayIn: false });
      const withPassword = await store.createIdentity({
        userId: other.id,
        provider: 'github',
        subject: '43',
        email: null,
        displayName: 'o',
      });
      expect(await store.deleteIdentity(other.id, withPassword.id)).toEqual({ removed: true, lastWayIn: false });
    });

    it('finds live sessions only, bumps their last use at most once a minute, and revokes one or the others', async () => {
      const user = await gatewayStore.createUser({
        email: 'sessions@example.test',
        displayName: 'S',
        role: 'user',
        passwordHash: null,
      });
      const first = await store.createSession({
        tokenHash: 'hash-1',
        userId: user.id,
        expiresAt: startTime + 3_600_000,
        userAgent: 'ua',
        clientIp: '10.0.0.1',
      });
      now += 1;
      const second = await store.createSession({
        tokenHash: 'hash-2',
        userId: user.id,
        expiresAt: startTime + 3_600_000,
        userAgent: null,
        clientIp: null,
      });
      now += 30_000;
      expect((await store.findSession('hash-1', now))?.session.lastSeenAt).toBe(startTime);
      now += 30_000;
      expect((await store.findSession('hash-1', now))?.session.lastSeenAt).toBe(now);
      expect(await store.findSession('hash-1', startTime + 3_600_000)).toBeUndefined();
      expect((await store.listSessions(user.id, now)).map((session) => session.id)).toEqual([second.id, first.id]);

      expect(await store.deleteSession('someone-else', first.id)).toBe(false);
      expect(await store.deleteOtherSessions(user.id, first.id)).toBe(1);
      expect(await store.findSession('hash-2', now)).toBeUndefined();
      expect(await store.deleteSession(user.id, first.id)).toBe(true);
      expect(await store.listSessions(user.id, now)).toEqual([]);
    });

    it('refuses expired admin tokens; tokens made through the billing store get 90 days', async () => {
      const token = await store.createAdminToken({ tokenHash: 'admin-1', name: 'ops', expiresAt: startTime + 1_000 });
      expect(await store.findAdminToken('admin-1', startTime + 999)).toEqual(token);
      expect(await store.findAdminToken('admin-1', startTime + 1_000)).toBeUndefined();
      const billingStore = createBillingStore({ databaseUrl: database.url, clock: () => startTime });
      await billingStore.createAdminToken({ tokenHash: 'admin-2', name: 'scripts' });
      await billingStore.close();
      expect((await store.findAdminToken('admin-2', startTime))?.expiresAt).toBe(startTime + 90 * 86_400_000);
      expect((await store.listAdminTokens()).map((listed) => listed.name)).toEqual(['ops', 'scripts']);
      expect(await store.deleteAdminToken(token.id)).toBe(true);
      expect(await store.deleteAdminToken(token.id)).toBe(false);
      expect((await store.listAdminTokens()).map((listed) => listed.name)).toEqual(['scripts']);
    });
  });
}
