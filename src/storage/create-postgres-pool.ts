import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type pg from 'pg';
import type { DatabaseConnectionSettings } from './database-connection-settings.js';
import { mapDatabaseError } from './map-database-error.js';

/** Where a pool reports connection failures (a logger's warn, rate limited by the caller). */
export type DatabaseFaultReporter = (error: Error, what: string) => void;

/** What a PostgreSQL pool is built from. */
export interface PostgresPoolOptions {
  /** the `pg` module (loaded lazily by the caller) */
  postgres: typeof pg;
  connectionString: string;
  types: pg.CustomTypesConfig;
  settings: DatabaseConnectionSettings;
  report: DatabaseFaultReporter;
}

/** Idle connections are closed after this long, so a restarted server's stale sockets do not linger. */
const idleTimeoutMs = 10_000;
/** A client in unbounded mode (migrations) still gives up on an answer after this long, in milliseconds. */
const unboundedQueryTimeoutMs = 3_600_000;
/** Statements that turn a connection's statement timeout off and on again (see withoutStatementTimeout). */
export const statementTimeoutOff = 'set statement_timeout = 0';
export const statementTimeoutReset = 'reset statement_timeout';
/** The client stops waiting for an answer this long after the server's own statement timeout should have fired. */
const clientTimeoutMarginMs = 1_000;

/**
 * A `pg` pool for Kysely in which no fault can end the process and every fault of the server is a 503: every client
 * has an 'error' listener for its whole life (pg-pool's own listens only while the client is idle, so a server that
 * ends a checked-out connection, as `pg_ctl restart -m fast` does with 57P01, would raise an unhandled 'error'),
 * connecting and each statement have timeouts, and a failure to reach the server rejects with StoreUnavailableError.
 */
export function createPostgresPool(options: PostgresPoolOptions): { pool: pg.Pool; kyselyPool: PostgresPool } {
  const { postgres, connectionString, types, settings, report } = options;
  const pool = new postgres.Pool({
    connectionString,
    types,
    connectionTimeoutMillis: settings.connectTimeoutMs,
    idleTimeoutMillis: idleTimeoutMs,
    keepAlive: true,
    statement_timeout: settings.statementTimeoutMs,
    query_timeout: settings.statementTimeoutMs + clientTimeoutMarginMs,
  });
  // A dropped idle connection: the pool removes it and opens another when needed.
  pool.on('error', (error) => report(error, 'an idle database connection failed'));
  // A checked-out connection ended by the server: its query rejects (and is answered 503); the pool drops it on release.
  pool.on('connect', (client) => client.on('error', (error) => report(error, 'a database connection failed')));
  const wrapped = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const kyselyPool: PostgresPool = {
    async connect() {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        throw mapDatabaseError(error);
      }
      let wrapper = wrapped.get(client);
      if (!wrapper) {
        wrapper = wrapClient(client);
        wrapped.set(client, wrapper);
      }
      return wrapper;
    },
    end: () => pool.end(),
  };
  return { pool, kyselyPool };
}

function wrapClient(client: pg.PoolClient): PostgresPoolClient {
  // Migrations may run longer than any request's statement: while the server's timeout is off, so is the client's.
  let unbounded = false;
  const query = (...parameters: unknown[]): unknown => {
    const [text, values] = parameters;
    if (text === statementTimeoutOff) unbounded = true;
    else if (text === statementTimeoutReset) unbounded = false;
    const send = (client.query as (...values: unknown[]) => unknown).bind(client);
    const result: unknown =
      unbounded && typeof text === 'string'
        ? send({ text, values, query_timeout: unboundedQueryTimeoutMs })
        : send(...parameters);
    // A cursor (Kysely's streams) is returned as is; a statement's promise has its failures mapped.
    if (result instanceof Promise) return result.catch((error: unknown) => Promise.reject(mapDatabaseError(error)));
    return result;
  };
  return { query: query as PostgresPoolClient['query'], release: () => client.release() };
}
