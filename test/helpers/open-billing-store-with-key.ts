// A migrated billing store on a test database with one user and one API key: the set-up of store-level billing tests.
import type { BillingStore } from '../../src/storage/billing-store.js';
import { createBillingStore } from '../../src/storage/kysely-billing-store.js';
import { createGatewayStore } from '../../src/storage/kysely-gateway-store.js';
import type { TestDatabase } from './storage-test-engines.js';

/** The store and the ids of the user and key it was made with. */
export interface BillingStoreWithKey {
  billingStore: BillingStore;
  userId: string;
  apiKeyId: string;
}

/** Migrates `database`, creates a user `<name>@example.com` with a key in a default group, and opens a billing store. */
export async function openBillingStoreWithKey(database: TestDatabase, name: string): Promise<BillingStoreWithKey> {
  const gatewayStore = createGatewayStore({ databaseUrl: database.url });
  await gatewayStore.migrate();
  const user = await gatewayStore.createUser({
    email: `${name}@example.com`,
    displayName: name,
    role: 'user',
    passwordHash: null,
  });
  const group = await gatewayStore.createModelGroup({ name: 'default', description: '', models: ['*'] });
  const key = await gatewayStore.createApiKey({
    userId: user.id,
    groupId: group.id,
    name: 'k',
    keyHash: 'b'.repeat(64),
    keyPrefix: 'sk-gw-bbbb',
    expiresAt: null,
  });
  await gatewayStore.close();
  const billingStore = createBillingStore({ databaseUrl: database.url });
  await billingStore.migrate();
  return { billingStore, userId: user.id, apiKeyId: key.id };
}
