import { isIP } from 'node:net';

/** Most entries one key's address allow-list may hold. */
export const maxAllowedIps = 100;

/** True for an IPv4 or IPv6 address, or a CIDR range of one (`10.0.0.0/8`): what a key's allow-list may hold. */
export function isAddressOrRange(value: string): boolean {
  const [address = '', prefix, extra] = value.split('/');
  if (extra !== undefined) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return Number.isInteger(bits) && bits >= 0 && bits <= (family === 4 ? 32 : 128);
}
