import { BlockList, isIP } from 'node:net';
import type { TrustProxySetting } from '../config/trust-proxy-setting.js';

/**
 * Whether the address at `hop` of a request's chain (0 = the socket's peer, then `X-Forwarded-For` from right to
 * left) is a proxy to believe, in the shape Fastify's `trustProxy` function takes. The resolved client address is
 * the first address that is not trusted; with no trusted proxy it is the socket's.
 */
export type ProxyTrust = (address: string, hop: number) => boolean;

/**
 * The trust function of the setting. A function rather than Fastify's own number and string forms: Fastify 5
 * ignores a hop count (it trusts nothing then), and the connection cap needs the same answer for a socket.
 */
export function createProxyTrust(setting: TrustProxySetting): ProxyTrust {
  switch (setting.kind) {
    case 'none':
      return () => false;
    case 'hops':
      return (_address, hop) => hop < setting.hops;
    case 'addresses': {
      const trusted = new BlockList();
      for (const range of setting.ranges) trusted.addSubnet(range.address, range.prefixLength, range.family);
      return (address) => {
        const version = isIP(address);
        // BlockList matches IPv4-mapped IPv6 peers (`::ffff:10.0.0.1`) against IPv4 ranges.
        return version !== 0 && trusted.check(address, version === 4 ? 'ipv4' : 'ipv6');
      };
    }
    default: {
      const unknown: never = setting;
      throw new Error(`unknown trust-proxy setting ${JSON.stringify(unknown)}`);
    }
  }
}
