import { isDatabaseUnavailableError } from './is-database-unavailable-error.js';
import { StoreUnavailableError } from './store-unavailable-error.js';

/** The driver's error, or a StoreUnavailableError (503) when the database could not be reached or answer in time. */
export function mapDatabaseError(error: unknown): unknown {
  if (error instanceof StoreUnavailableError) return error;
  return isDatabaseUnavailableError(error) ? new StoreUnavailableError('database', error) : error;
}
