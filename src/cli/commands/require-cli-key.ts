import type { ApiKeyRecord } from '../../storage/store-records.js';
import type { CliServices } from '../open-cli-services.js';

/** The key with this id, or a one-line error naming it. */
export async function requireCliKey(services: Pick<CliServices, 'gatewayStore'>, id: string): Promise<ApiKeyRecord> {
  const found = (await services.gatewayStore.listApiKeys()).find((candidate) => candidate.id === id);
  if (!found) throw new Error(`No key ${id}; see 'gateway key list'`);
  return found;
}
