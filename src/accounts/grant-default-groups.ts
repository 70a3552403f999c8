import { defaultUserGroupNames, type GatewayConfig } from '../config/gateway-config.js';
import type { GatewayStore } from '../storage/gateway-store.js';
import type { ModelGroupRecord } from '../storage/store-records.js';

/**
 * Grants a newly created user the operator's default groups (GATEWAY_DEFAULT_USER_GROUPS). Every path that creates
 * a user calls this (CLI, /api, social sign-in). Names that name no group at this moment are skipped, so a fresh
 * install without a `default` group still creates users. Returns the groups granted.
 */
export async function grantDefaultGroups(
  store: Pick<GatewayStore, 'listModelGroups' | 'grantUserGroups'>,
  userId: string,
  config: Pick<GatewayConfig, 'defaultUserGroups'>,
): Promise<ModelGroupRecord[]> {
  const names = new Set(config.defaultUserGroups ?? defaultUserGroupNames);
  if (names.size === 0) return [];
  const groups = (await store.listModelGroups()).filter((group) => names.has(group.name));
  if (groups.length > 0)
    await store.grantUserGroups(
      userId,
      groups.map((group) => group.id),
    );
  return groups;
}
