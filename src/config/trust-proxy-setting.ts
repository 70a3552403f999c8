import { isIP } from 'node:net';

/**
 * Which reverse proxies the gateway believes about the client's address (`X-Forwarded-For`): none (the socket's
 * address is the client), the nearest `hops` proxies whatever their address, or proxies at the listed addresses.
 */
export type TrustProxySetting =
  { kind: 'none' } | { kind: 'hops'; hops: number } | { kind: 'addresses'; ranges: TrustedRange[] };

/** One trusted address range: an address and a prefix length (32 or 128 for a single address). */
export interface TrustedRange {
  address: string;
  prefixLength: number;
  family: 'ipv4' | 'ipv6';
}

/** The named ranges proxy-addr (and so Express and Fastify) understand. */
const namedRanges: Record<string, readonly string[]> = {
  loopback: ['127.0.0.1/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/**
 * Reads GATEWAY_TRUST_PROXY: unset or empty trusts no proxy; a whole number is a hop count (0 = none); otherwise a
 * comma list of addresses, CIDR ranges and the names `loopback`, `linklocal`, `uniquelocal`. Anything else stops
 * the start with a message, since a typo here would silently trust or distrust every client's address.
 */
export function readTrustProxySetting(environment: NodeJS.ProcessEnv): TrustProxySetting {
  const raw = environment.GATEWAY_TRUST_PROXY?.trim() ?? '';
  if (raw === '') return { kind: 'none' };
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    return hops === 0 ? { kind: 'none' } : { kind: 'hops', hops };
  }
  const entries = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  return { kind: 'addresses', ranges: entries.flatMap((entry) => (namedRanges[entry] ?? [entry]).map(parseRange)) };
}

function parseRange(entry: string): TrustedRange {
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  const refuse = (): never => {
    throw new Error(
      `GATEWAY_TRUST_PROXY must be a hop count or a comma list of addresses, CIDR ranges, loopback, linklocal or uniquelocal; "${entry}" is none of these`,
    );
  };
  if (version === 0 || rest.length > 0) return refuse();
  const family = version === 4 ? 'ipv4' : 'ipv6';
  const longest = version === 4 ? 32 : 128;
  if (prefix === undefined) return { address, prefixLength: longest, family };
  if (!/^\d+$/.test(prefix) || Number(prefix) > longest) return refuse();
  return { address, prefixLength: Number(prefix), family };
}
