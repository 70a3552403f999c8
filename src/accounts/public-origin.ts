/** The gateway's public origin: GATEWAY_PUBLIC_URL, or `http://127.0.0.1:<port>` of the listening socket when unset. */
export function resolvePublicOrigin(
  configuredPublicUrl: string | undefined,
  listeningPort: number | undefined,
): string {
  if (configuredPublicUrl !== undefined) return new URL(configuredPublicUrl).origin;
  return `http://127.0.0.1:${listeningPort ?? 80}`;
}

/**
 * True when the origin is plain http on a loopback host: the only case where cookies go without `Secure` (browsers
 * refuse `Secure` cookies over http except on localhost, and a development gateway is reached that way).
 */
export function isPlainHttpLoopback(origin: string): boolean {
  const url = new URL(origin);
  if (url.protocol !== 'http:') return false;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}
