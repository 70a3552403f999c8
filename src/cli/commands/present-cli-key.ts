import type { ApiKeyRecord } from '../../storage/store-records.js';
import { presentApiKey } from '../../server/api/present-api-records.js';
import type { CliServices } from '../open-cli-services.js';

/** Keys as the /api presents them: no hash; spending cap, address list and limits; whether each works now. */
export async function presentCliKeys(services: Pick<CliServices, 'billing' | 'gatewayStore'>, keys: ApiKeyRecord[]) {
  const grants = await services.gatewayStore.listUserGroupGrants();
  const granted = new Set(grants.map((grant) => `${grant.userId} ${grant.groupId}`));
  const now = Date.now();
  return keys.map((key) => {
    const money = services.billing.memory.key(key.id);
    return presentApiKey(
      key,
      money && {
        spendingCap: money.spendingCap,
        spent: money.spent,
        allowedIps: money.allowedIpList,
        limits: money.limits,
      },
      { groupGranted: granted.has(`${key.userId} ${key.groupId}`), now },
    );
  });
}

/** One key as the /api presents it (see presentCliKeys). */
export async function presentCliKey(services: Pick<CliServices, 'billing' | 'gatewayStore'>, key: ApiKeyRecord) {
  const [presented] = await presentCliKeys(services, [key]);
  if (!presented) throw new Error('presentCliKeys returned no key');
  return presented;
}
