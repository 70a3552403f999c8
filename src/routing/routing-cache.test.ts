import { describe, expect, it } from 'vitest';
import { createSecretBox } from '../accounts/secret-box.js';
import type { GatewayStore } from '../storage/gateway-store.js';
import type { RoutingSnapshotRecords } from '../storage/store-records.js';
import { modelCatalogData } from './model-catalog-data.js';
import { RoutingCache } from './routing-cache.js';

/** A store that serves only what the cache reads, and counts how often it is asked. */
function createCountingStore() {
  const state = { revision: 1, revisionReads: 0, snapshotLoads: 0 };
  const records = (): RoutingSnapshotRecords => ({ revision: state.revision, users: [], groups: [], channels: [], apiKeys: [], catalogEntries: [], userGroups: [] });
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
