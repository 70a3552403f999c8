import { CacheAffinityMap } from '../routing/cache-affinity-map.js';

const mapsByRouting = new WeakMap<object, CacheAffinityMap>();

/**
 * The cache-affinity map of one running gateway, kept beside its routing cache (so two apps in one process, as in
 * tests, never share channel ids) and made on first use.
 */
export function cacheAffinityOf(routing: object): CacheAffinityMap {
  let map = mapsByRouting.get(routing);
  if (!map) {
    map = new CacheAffinityMap();
    mapsByRouting.set(routing, map);
  }
  return map;
}
