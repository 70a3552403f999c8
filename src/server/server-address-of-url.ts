/** `server.address` and `server.port` of a vendor base URL (the port its scheme implies when it names none). */
export interface ServerAddress {
  address: string;
  port: number;
}

/** Base URLs met so far: channels are few; cleared when full, never large. */
const addressesByUrl = new Map<string, ServerAddress | undefined>();
const addressesByUrlLimit = 1024;

/** The host and port of a URL, parsed once per URL; undefined for a URL that does not parse. */
export function serverAddressOfUrl(url: string): ServerAddress | undefined {
  if (addressesByUrl.has(url)) return addressesByUrl.get(url);
  let address: ServerAddress | undefined;
  try {
    const parsed = new URL(url);
    const port = parsed.port === '' ? (parsed.protocol === 'https:' ? 443 : 80) : Number(parsed.port);
    address = { address: parsed.hostname, port };
  } catch {
    address = undefined;
  }
  if (addressesByUrl.size >= addressesByUrlLimit) addressesByUrl.clear();
  addressesByUrl.set(url, address);
  return address;
}
