import type { FastifyRequest } from 'fastify';
import { resolvePublicOrigin } from '../../accounts/public-origin.js';
import type { GatewayConfig } from '../../config/gateway-config.js';

/** Where clients reach this gateway, for the URLs it hands out: GATEWAY_PUBLIC_URL, else the loopback port it was reached on. */
export function videoPublicOriginOf(request: FastifyRequest, config: GatewayConfig): string {
  return resolvePublicOrigin(config.signIn?.publicUrl, request.socket.localPort);
}
