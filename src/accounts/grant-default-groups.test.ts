import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GatewayStore } from '../storage/gateway-store.js';
import { createGatewayStore } from '../storage/kysely-gateway-store.js';
import { grantDefaultGroups } from './grant-default-groups.js';

describe('grantDefaultGroups', () => {
  let store: GatewayStore;

  beforeEach(async () => {
    store = createGatewayStore({ databaseUrl: 'sqlite::memory:' });
    await store.migrate();
  });

  afterEach(async () => {
    await store.close();
  });

  const newUser = (email: string) => store.createUser({ email, displayName: email, role: 'user', passwordHash: null });

  it('grants the configured groups that exist and skips names that name no group', async () => {
    await store.createModelGroup({ name: 'default', description: '', models: ['*'] });
    await store.createModelGroup({ name: 'trial', description: '', models: ['gpt-4o-mini'] });
    await store.createModelGroup({ name: 'premium', description: '', models: ['*'] });
    const user = await newUser('ada@example.com');

    const granted = await grantDefaultGroups(store, user.id, {
      defaultUserGroups: ['trial', 'default', 'no-such-group'],
    });
    expect(granted.map((group) => group.name).sort()).toEqual(['default', 'trial']);
    expect((await store.listUserGroups(user.id)).map((group) => group.name)).toEqual(['default', 'trial']);
  });

  it('uses `default` when the configuration does not say, and grants nothing for an empty list or a fresh install', async () => {
    const early = await newUser('early@example.com');
    expect(await grantDefaultGroups(store, early.id, {})).toEqual([]);
    await store.createModelGroup({ name: 'default', description: '', models: ['*'] });
    const later = await newUser('later@example.com');
    expect((await grantDefaultGroups(store, later.id, {})).map((group) => group.name)).toEqual(['default']);
    const none = await newUser('none@example.com');
    expect(await grantDefaultGroups(store, none.id, { defaultUserGroups: [] })).toEqual([]);
    expect(await store.listUserGroups(none.id)).toEqual([]);
  });
});
