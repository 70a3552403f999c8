import type { ChannelOutcome } from './channel-outcome.js';

/**
 * The outcome of an upstream HTTP answer with a failing status: 401/403 blame the channel's credentials, 408 is a
 * vendor-side timeout, 429 a rate limit, 5xx (and 529 overloaded) a vendor error; every other 4xx (404 included,
 * since a client's own path or ids can cause it) is the client's and leaves the breaker alone.
 */
export function mapStatusToChannelOutcome(status: number, retryAfter: string | undefined): ChannelOutcome {
  if (status < 400) return { kind: 'success' };
  if (status === 401 || status === 403) return { kind: 'credential-rejected', status };
  if (status === 408) return { kind: 'timeout' };
  if (status === 429) return { kind: 'rate-limited', retryAfter };
  if (status >= 500) return { kind: 'vendor-error', status, retryAfter };
  return { kind: 'client-error', status };
}
