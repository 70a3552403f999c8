import { GatewayError } from '../core/gateway-error.js';
import type { LimitSubject } from './request-rate-limiter.js';

/** A counter's state as the client is told it. */
export interface CounterState {
  /** what is left of the limit in the current window */
  remainingPoints: number;
  /** milliseconds until the current window ends */
  msBeforeNext: number;
}

/** The counters a request takes: requests and tokens per minute, and requests at once. */
export type CounterKind = 'rpm' | 'tpm' | 'concurrent';

const counterUnits = { rpm: 'requests', tpm: 'tokens', concurrent: 'concurrent requests' } as const;

/** The 429 `rate_limit_exceeded` of a used-up counter, with `retry-after` and the counter's `x-ratelimit-*` headers. */
export function createRateLimitError(
  kind: CounterKind,
  limit: number,
  subject: LimitSubject,
  state: CounterState,
): GatewayError {
  const retryAfterSeconds = kind === 'concurrent' ? 1 : Math.max(1, Math.ceil(state.msBeforeNext / 1000));
  const headers: Record<string, string> = { 'retry-after': String(retryAfterSeconds) };
  if (kind === 'rpm') setRateLimitHeaders(headers, 'requests', limit, state);
  if (kind === 'tpm') setRateLimitHeaders(headers, 'tokens', limit, state);
  return new GatewayError(
    'rate_limit_exceeded',
    `Rate limit reached for this ${subject.scope === 'key' ? 'API key' : 'user'}: at most ${limit} ${counterUnits[kind]}${kind === 'concurrent' ? ' at once' : ' per minute'}. Please slow down and retry after ${retryAfterSeconds} s.`,
    { headers },
  );
}

/** The `x-ratelimit-*` header names of each unit, built once rather than per request. */
const headerNames = {
  requests: {
    limit: 'x-ratelimit-limit-requests',
    remaining: 'x-ratelimit-remaining-requests',
    reset: 'x-ratelimit-reset-requests',
  },
  tokens: {
    limit: 'x-ratelimit-limit-tokens',
    remaining: 'x-ratelimit-remaining-tokens',
    reset: 'x-ratelimit-reset-tokens',
  },
} as const;

/** Sets a unit's `x-ratelimit-*` headers; with a key and a user limit, the tighter one (fewer remaining) is what the client sees. */
export function setRateLimitHeaders(
  headers: Record<string, string>,
  unit: 'requests' | 'tokens',
  limit: number,
  state: CounterState,
): void {
  const names = headerNames[unit];
  const previous = headers[names.remaining];
  if (previous !== undefined && Number(previous) <= state.remainingPoints) return;
  headers[names.limit] = String(limit);
  headers[names.remaining] = String(Math.max(0, state.remainingPoints));
  headers[names.reset] = `${Math.max(0, Math.ceil(state.msBeforeNext / 1000))}s`;
}
