import type { Logger } from 'pino';
import { describe, expect, it } from 'vitest';
import { createSecretBox } from '../accounts/secret-box.js';
import type { GatewayStore } from '../storage/gateway-store.js';
import { createGatewayStore } from '../storage/kysely-gateway-store.js';
import type { RoutingSnapshotRecords } from '../storage/store-records.js';
import { modelCatalogData } from './model-catalog-data.js';
import { RoutingCache } from './routing-cache.js';

/** A store that serves only what the cache reads, and counts how often it is asked. */
function createCountingStore() {
  const state = { revision: 1, revisionReads: 0, snapshotLoads: 0 };
  const records = (): RoutingSnapshotRecords => ({
    revision: state.revision,
    users: [],
    groups: [],
    channels: [],
    apiKeys: [],
    catalogEntries: [],
    userGroups: [],
  });
  const store = {
    readRoutingRevision: async () => {
      state.revisionReads++;
      return state.revision;
    },
    loadRoutingSnapshot: async () => {
      state.snapshotLoads++;
      return records();
    },
  } as unknown as GatewayStore;
  return { store, state };
}

describe('RoutingCache.refreshStartedAfter', () => {
  it('always sees a change made just after the previous check', async () => {
    const { store, state } = createCountingStore();
    const cache = new RoutingCache({ store, baseModels: modelCatalogData, secretBox: createSecretBox('x') });
    await cache.refresh();
    state.revision = 2;
    await cache.refreshStartedAfter(Date.now(), 20);
    expect(cache.current.revision).toBe(2);
  });

  it('shares one check among many callers that arrive together', async () => {
    const { store, state } = createCountingStore();
    const cache = new RoutingCache({ store, baseModels: modelCatalogData, secretBox: createSecretBox('x') });
    await cache.refresh();
    const readsBefore = state.revisionReads;
    const since = Date.now();
    await Promise.all(Array.from({ length: 50 }, () => cache.refreshStartedAfter(since, 20)));
    expect(state.revisionReads - readsBefore).toBeLessThanOrEqual(2);
  });
});

describe('RoutingCache with a channel whose secret cannot be decrypted', () => {
  it('keeps refreshing, leaves the channel out and logs it once per rebuilt table, without its secret', async () => {
    const store = createGatewayStore({ databaseUrl: 'sqlite::memory:' });
    await store.migrate();
    try {
      const secretBox = createSecretBox('this gateway');
      const channel = {
        protocol: 'openai',
        preset: null,
        baseUrl: 'http://127.0.0.1:1/v1',
        models: ['gpt-4o'],
        modelMapping: {},
        priority: 0,
        weight: 1,
      };
      await store.createChannel({ ...channel, name: 'readable', encryptedSecret: secretBox.encrypt('sk-readable') });
      await store.createChannel({
        ...channel,
        name: 'unreadable',
        encryptedSecret: createSecretBox('another gateway').encrypt('sk-unreadable'),
      });
      const errors: Array<{ fields: unknown; message: string }> = [];
      const logger = {
        error: (fields: unknown, message: string) => errors.push({ fields, message }),
      } as unknown as Logger;
      const cache = new RoutingCache({ store, baseModels: modelCatalogData, secretBox, logger });

      await cache.refresh();
      expect(cache.current.channelsFor('gpt-4o').map((routable) => routable.name)).toEqual(['readable']);
      await cache.refresh();
      expect(errors).toHaveLength(1);
      expect(errors[0]?.fields).toMatchObject({ channels: [{ name: 'unreadable' }] });
      expect(JSON.stringify(errors)).not.toContain('sk-unreadable');

      await store.createModelGroup({ name: 'later', description: '', models: ['*'] });
      await cache.refresh();
      expect(cache.current.revision).toBe(3);
      expect(errors).toHaveLength(2);
    } finally {
      await store.close();
    }
  });
});
