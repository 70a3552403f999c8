import ipaddr from 'ipaddr.js';

// Ranges no fetch may reach even when the operator allows private addresses: they name no single host.
const neverFetchableRanges = new Set(['unspecified', 'broadcast', 'multicast']);
// IPv6 global unicast is 2000::/3; everything outside it (IPv4-compatible ::a.b.c.d, NAT64 64:ff9b::/96, ...) is not a public host.
const globalUnicastIpv6 = ipaddr.parseCIDR('2000::/3');

/**
 * Whether the gateway may open a connection to this IP address (v4 or v6 text) to fetch an image. By default only public
 * unicast addresses qualify: loopback, private (RFC 1918), link-local (with the 169.254.169.254 metadata service),
 * carrier-grade NAT, unique-local, reserved and documentation ranges, multicast, and IPv4-mapped IPv6 forms of any of
 * those are refused. `allowPrivateAddresses` admits all of them except unspecified, broadcast and multicast.
 */
export function isFetchableAddress(address: string, allowPrivateAddresses: boolean): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  // ::ffff:10.0.0.1 reaches 10.0.0.1: judge the IPv4 address it carries.
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  const range = parsed.range();
  if (neverFetchableRanges.has(range)) return false;
  if (allowPrivateAddresses) return true;
  if (range !== 'unicast') return false;
  return parsed.kind() === 'ipv4' || parsed.match(globalUnicastIpv6);
}
