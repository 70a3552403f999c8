/** How long database calls may take before they fail (so a request that needs a database that is down gets 503 in time). */
export interface DatabaseConnectionSettings {
  /** milliseconds a PostgreSQL statement may run (server `statement_timeout`; the client gives up 1 s later) */
  statementTimeoutMs: number;
  /** milliseconds to open a PostgreSQL connection or wait for a free one in the pool */
  connectTimeoutMs: number;
}

/** Defaults: a statement gets 5 s, a connection 2 s. */
export const defaultDatabaseConnectionSettings: DatabaseConnectionSettings = {
  statementTimeoutMs: 5_000,
  connectTimeoutMs: 2_000,
};

/** Reads GATEWAY_DATABASE_STATEMENT_TIMEOUT_MS and GATEWAY_DATABASE_CONNECT_TIMEOUT_MS (positive integers) with the defaults. */
export function loadDatabaseConnectionSettings(
  environment: NodeJS.ProcessEnv = process.env,
): DatabaseConnectionSettings {
  return {
    statementTimeoutMs: readPositiveInteger(
      environment,
      'GATEWAY_DATABASE_STATEMENT_TIMEOUT_MS',
      defaultDatabaseConnectionSettings.statementTimeoutMs,
    ),
    connectTimeoutMs: readPositiveInteger(
      environment,
      'GATEWAY_DATABASE_CONNECT_TIMEOUT_MS',
      defaultDatabaseConnectionSettings.connectTimeoutMs,
    ),
  };
}

function readPositiveInteger(environment: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = environment[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0)
    throw new Error(`${name} must be a positive integer (milliseconds), got "${raw}"`);
  return value;
}
