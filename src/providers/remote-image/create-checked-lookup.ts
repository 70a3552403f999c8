import { promises as dns, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';

/** Resolves a hostname to every address it has. */
export type ResolveHostname = (hostname: string) => Promise<LookupAddress[]>;

/** The system resolver (what `net.connect` would use), returning every address. */
export const resolveWithSystem: ResolveHostname = (hostname) => dns.lookup(hostname, { all: true });

/**
 * A `lookup` for socket connections that resolves the hostname and fails unless every address it resolves to is allowed.
 * The socket then connects to exactly the checked address, so a name that re-resolves elsewhere later (DNS rebinding)
 * is checked again on its next connection.
 */
export function createCheckedLookup(
  isAddressAllowed: (address: string) => boolean,
  resolveHostname: ResolveHostname = resolveWithSystem,
): LookupFunction {
  return (hostname, options, callback) => {
    const resolved = isIP(hostname)
      ? Promise.resolve([{ address: hostname, family: isIP(hostname) }])
      : resolveHostname(hostname);
    resolved.then(
      (all) => {
        const addresses =
          options.family === 4 || options.family === 6 ? all.filter((entry) => entry.family === options.family) : all;
        const first = addresses[0];
        if (!first) return callback(lookupError('ENOTFOUND', `${hostname} has no usable address`), '');
        // Refusing the whole name (rather than skipping its private addresses) leaves no way to steer the pick.
        if (addresses.some((entry) => !isAddressAllowed(entry.address)))
          return callback(lookupError('EADDRNOTPUBLIC', `${hostname} resolves to a refused address`), '');
        if (options.all) return callback(null, addresses);
        return callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}

function lookupError(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}
