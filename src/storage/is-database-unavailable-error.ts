/**
 * PostgreSQL SQLSTATEs that say the server cannot serve now (not that the statement is wrong): class 08 connection
 * exceptions, 57P01-57P03 (administrator shutdown, crash shutdown, cannot connect now: `pg_ctl restart` produces
 * them), 57014 (statement_timeout), 53300 (too many connections).
 */
const unavailableStates = new Set(['57P01', '57P02', '57P03', '57014', '53300', '53000']);
/** Socket errors of a server that went away or cannot be reached. */
const unavailableSocketCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOENT',
]);
/** node-postgres's own messages for a lost or timed-out connection (they carry no code). */
const unavailableMessages = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Query read timeout',
  'is not queryable',
  'Client was closed and is not queryable',
  'Cannot use a pool after calling end on the pool',
  'The SQLite worker thread stopped',
];
/** SQLite's result codes of a database file held by another writer longer than the busy timeout. */
const unavailableSqliteCodes = new Set([
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  'SQLITE_IOERR',
  'SQLITE_FULL',
  'SQLITE_CANTOPEN',
]);

/** True when a database call failed because the database cannot be reached or is overloaded, not because of the statement. */
export function isDatabaseUnavailableError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (code.startsWith('08') && code.length === 5) return true;
    if (unavailableStates.has(code) || unavailableSocketCodes.has(code)) return true;
    if (unavailableSqliteCodes.has(code) || [...unavailableSqliteCodes].some((prefix) => code.startsWith(`${prefix}_`)))
      return true;
  }
  return unavailableMessages.some((message) => error.message.includes(message));
}
