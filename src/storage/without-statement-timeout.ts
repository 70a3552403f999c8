import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { statementTimeoutOff, statementTimeoutReset } from './create-postgres-pool.js';
import type { DatabaseSchema } from './database-schema.js';

/**
 * On PostgreSQL, runs `work` on one connection with the statement timeout off, then restores it: for work that is
 * not a request's and may rightly run long on a large database (migrations and the wait for another node's
 * migration lock, the retention sweep, `billing verify`). Elsewhere `work` runs on `database` as it is.
 */
export async function withoutStatementTimeout<Result>(
  database: Kysely<DatabaseSchema>,
  work: (connection: Kysely<DatabaseSchema>) => Promise<Result>,
): Promise<Result> {
  if (!(database.getExecutor().adapter instanceof PostgresAdapter)) return work(database);
  return database.connection().execute(async (connection) => {
    await sql.raw(statementTimeoutOff).execute(connection);
    try {
      return await work(connection);
    } finally {
      await sql.raw(statementTimeoutReset).execute(connection);
    }
  });
}
