import { createSecretBox, resolveSecretPassphrase } from '../accounts/secret-box.js';
import type { GatewayConfig } from '../config/gateway-config.js';
import { createReasoningSealer, type ReasoningSealer } from '../protocols/shared/reasoning-sealer.js';

/**
 * The sealer for thinking signatures of the Messages routes, keyed with the gateway's secret (the one channel secrets
 * are encrypted with), so every node of a cluster opens what another sealed.
 */
export function createMessagesArtefactSealer(config: GatewayConfig): ReasoningSealer {
  return createReasoningSealer(createSecretBox(resolveSecretPassphrase(config)));
}
