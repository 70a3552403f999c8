// The key change log (migration 0026): key writes say which key each revision changed, so nodes re-read that key
// alone; any other write, a grant given with a key, or a node too far behind means a full reload.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBillingStore } from '../../src/storage/kysely-billing-store.js';
import { createGatewayStore } from '../../src/storage/kysely-gateway-store.js';
import type { GatewayStore } from '../../src/storage/gateway-store.js';
import type { BillingStore } from '../../src/storage/billing-store.js';
import { storageTestEngines, type TestDatabase } from '../helpers/storage-test-engines.js';

const limits = { requestsPerMinute: null, tokensPerMinute: null, maxConcurrentRequests: null };

for (const engine of storageTestEngines('key-changes')) {
  describe.runIf(engine.run)(`key change log on ${engine.name}`, () => {
    let database: TestDatabase;
    let store: GatewayStore;
    let billingStore: BillingStore;

    beforeEach(async () => {
      database = await engine.create();
      store = createGatewayStore({ databaseUrl: database.url });
      await store.migrate();
      billingStore = createBillingStore({ databaseUrl: database.url });
    });

    afterEach(async () => {
      await billingStore.close();
      await store.close();
      await database.drop();
    });

    async function seedUserAndGroup() {
      const user = await store.createUser({
        email: 'ada@example.com',
        displayName: 'Ada',
        role: 'user',
        passwordHash: null,
      });
      const group = await store.createModelGroup({ name: 'default', description: '', models: ['*'] });
      await store.grantUserGroups(user.id, [group.id]);
      return { user, group };
    }

    function newKey(userId: string, groupId: string, name: string) {
      return { userId, groupId, name, keyHash: `hash-${name}`, keyPrefix: 'sk-x', expiresAt: null };
    }

    it('returns the rows of keys created, changed and deleted since a revision, read at the latest one', async () => {
      const { user, group } = await seedUserAndGroup();
      const since = await store.readRoutingRevision();
      const kept = await store.createApiKey(newKey(user.id, group.id, 'kept'));
      const removed = await store.createApiKey(newKey(user.id, group.id, 'removed'));
      await store.setApiKeyStatus(kept.id, 'disabled');
      await store.updateApiKey(kept.id, { name: 'renamed' });
      await store.deleteApiKey(removed.id);

      const changes = await store.loadApiKeyRoutingChanges(since);
      expect(changes?.revision).toBe(await store.readRoutingRevision());
      expect(new Set(changes?.changedApiKeyIds)).toEqual(new Set([kept.id, removed.id]));
      expect(changes?.apiKeys).toEqual([expect.objectContaining({ id: kept.id, name: 'renamed', status: 'disabled' })]);
      expect(changes?.users.map((row) => row.id)).toEqual([user.id]);
      expect(changes?.groups.map((row) => row.id)).toEqual([group.id]);
      expect(changes?.userGroups).toEqual([expect.objectContaining({ userId: user.id, groupId: group.id })]);
    });

    it('asks for a full reload after any other routing write, or a key that granted its group', async () => {
      const { user, group } = await seedUserAndGroup();
      const beforeGroup = await store.readRoutingRevision();
      await store.createApiKey(newKey(user.id, group.id, 'first'));
      await store.createModelGroup({ name: 'other', description: '', models: ['*'] });
      expect(await store.loadApiKeyRoutingChanges(beforeGroup)).toBeUndefined();

      const other = await store.findModelGroupByName('other');
      const beforeGrant = await store.readRoutingRevision();
      // The user does not hold `other`: the key grants it, which lets more than this key route.
      await store.createApiKey(newKey(user.id, other?.id ?? '', 'granting'));
      expect(await store.loadApiKeyRoutingChanges(beforeGrant)).toBeUndefined();
      // Nothing changed since the latest revision: nothing to re-read, the caller keeps its table.
      expect(await store.loadApiKeyRoutingChanges(await store.readRoutingRevision())).toBeUndefined();
    });

    it("logs a key's billing settings the same way, and any other billing write breaks the chain", async () => {
      const { user, group } = await seedUserAndGroup();
      const key = await store.createApiKey(newKey(user.id, group.id, 'billed'));
      const since = await billingStore.readBillingRevision();
      await billingStore.setApiKeyBilling(key.id, { spendingCap: 5, allowedIps: ['10.0.0.0/8'], limits });
      const changes = await billingStore.loadApiKeyBillingChanges?.(since);
      expect(changes).toEqual({
        revision: since + 1,
        changedApiKeyIds: [key.id],
        apiKeys: [{ apiKeyId: key.id, spendingCap: 5, spent: 0, allowedIps: ['10.0.0.0/8'], limits }],
      });
      await billingStore.setUserLimits(user.id, limits);
      expect(await billingStore.loadApiKeyBillingChanges?.(since)).toBeUndefined();
    });
  });
}
