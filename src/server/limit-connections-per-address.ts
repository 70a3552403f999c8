import type { FastifyInstance } from 'fastify';
import type { Socket } from 'node:net';
import { GatewayError } from '../core/gateway-error.js';
import type { RefusalCounts } from '../observability/refusal-counts.js';
import type { ProxyTrust } from './create-proxy-trust.js';

/** How long a connection over the cap may stay silent before it is dropped, in milliseconds. */
const overCapIdleMs = 1_000;

/**
 * Caps the connections one client address holds open (0 = no cap). A connection over the cap is not refused
 * blindly: its first request gets 429 `rate_limit_exceeded` in OpenAI's shape and the connection is closed, and
 * one that sends nothing is dropped after a second, so idle sockets cannot pile up. Connections from a trusted proxy
 * (`proxyTrust` at hop 0) are not counted: they carry many clients' requests, which the per-address in-flight cap
 * limits by each client's own address. Refusals are counted in `refusals` when given.
 */
export function limitConnectionsPerAddress(
  app: FastifyInstance,
  maxPerAddress: number,
  proxyTrust: ProxyTrust = () => false,
  refusals?: RefusalCounts,
): void {
  if (maxPerAddress <= 0) return;
  const openByAddress = new Map<string, number>();
  const overCap = new WeakSet<Socket>();
  app.server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    if (proxyTrust(address, 0)) return;
    const open = (openByAddress.get(address) ?? 0) + 1;
    openByAddress.set(address, open);
    socket.once('close', () => {
      const left = (openByAddress.get(address) ?? 1) - 1;
      if (left > 0) openByAddress.set(address, left);
      else openByAddress.delete(address);
    });
    if (open > maxPerAddress) {
      overCap.add(socket);
      socket.setTimeout(overCapIdleMs);
    }
  });
  app.addHook('onRequest', (request, _reply, done) => {
    if (!overCap.has(request.raw.socket)) {
      done();
      return;
    }
    refusals?.count('connection_cap');
    const message = `Too many connections from ${request.ip}: at most ${maxPerAddress} at once. Reuse or close idle connections and retry.`;
    done(new GatewayError('rate_limit_exceeded', message, { headers: { 'retry-after': '1', connection: 'close' } }));
  });
}
