import { createApiKeyService, type ApiKeyService } from '../accounts/api-key-service.js';
import type { CliServices } from './open-cli-services.js';

/**
 * The key service over the CLI's stores, the same one the /api uses. The CLI holds no routing table of its own to
 * refresh: running gateways see the key change at their next revision check (or at once through Redis).
 */
export function createCliApiKeyService(
  services: Pick<CliServices, 'config' | 'gatewayStore' | 'billing'>,
): ApiKeyService {
  return createApiKeyService({
    apiKeys: services.gatewayStore,
    groups: services.gatewayStore,
    audit: services.gatewayStore,
    billing: services.billing,
    routing: { refresh: () => Promise.resolve() },
    maxKeysPerUser: services.config.maxKeysPerUser,
    clock: Date.now,
  });
}
