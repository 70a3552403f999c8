/**
 * Why the gateway refused a request before any vendor saw it, as `gateway_refusals_total{reason}` reports it:
 * `rate_limit` (a key's or user's requests or tokens per minute, or its concurrency), `insufficient_quota` (balance,
 * debt or the key's spending cap), `model_unpriced` (a model with no price), `key_restricted` (the key's address list), `settlement_queue_full` (the database is
 * behind), `store_unavailable` (the database or Redis a request needs is down), `in_flight_cap` (the process's
 * GATEWAY_MAX_IN_FLIGHT_REQUESTS), `per_user_cap`, `per_address_cap`, `connection_cap` and `shutting_down`.
 */
export type RefusalReason =
  | 'rate_limit'
  | 'insufficient_quota'
  | 'model_unpriced'
  | 'key_restricted'
  | 'settlement_queue_full'
  | 'store_unavailable'
  | 'in_flight_cap'
  | 'per_user_cap'
  | 'per_address_cap'
  | 'connection_cap'
  | 'shutting_down';

/** Every refusal reason, in the order `/metrics` lists them. */
export const refusalReasons: readonly RefusalReason[] = [
  'rate_limit',
  'insufficient_quota',
  'model_unpriced',
  'key_restricted',
  'settlement_queue_full',
  'store_unavailable',
  'in_flight_cap',
  'per_user_cap',
  'per_address_cap',
  'connection_cap',
  'shutting_down',
];

/**
 * Refusals counted since the process started, one number per reason: a refusal adds one to a plain field (no label
 * hashing on the request path) and the Prometheus counter reads the numbers at each scrape.
 */
export class RefusalCounts {
  private readonly counts: Record<RefusalReason, number> = {
    rate_limit: 0,
    insufficient_quota: 0,
    model_unpriced: 0,
    key_restricted: 0,
    settlement_queue_full: 0,
    store_unavailable: 0,
    in_flight_cap: 0,
    per_user_cap: 0,
    per_address_cap: 0,
    connection_cap: 0,
    shutting_down: 0,
  };

  /** Counts one refusal. */
  count(reason: RefusalReason): void {
    this.counts[reason] += 1;
  }

  /** Refusals counted for `reason` since the process started. */
  of(reason: RefusalReason): number {
    return this.counts[reason];
  }
}
