import { GatewayError } from '../core/gateway-error.js';

/** Which shared store failed. */
export type UnavailableStore = 'database' | 'redis';

/** Seconds a client is asked to wait before retrying a request that needed a store that is down. */
export const storeRetryAfterSeconds = 1;

/**
 * A store that a request needs is down or too slow: the client gets 503 `service_unavailable` with `Retry-After`
 * (through the error handlers, like any GatewayError); `cause` keeps the driver's error for the log.
 */
export class StoreUnavailableError extends GatewayError {
  /** the store that failed */
  readonly store: UnavailableStore;

  constructor(store: UnavailableStore, cause: unknown) {
    super(
      'service_unavailable',
      store === 'database'
        ? 'The database of the gateway is unavailable or too slow right now; retry in a moment.'
        : 'The gateway cannot reach its shared state (Redis) right now; retry in a moment.',
      {
        headers: { 'retry-after': String(storeRetryAfterSeconds) },
      },
    );
    this.name = 'StoreUnavailableError';
    this.store = store;
    this.cause = cause;
  }
}
