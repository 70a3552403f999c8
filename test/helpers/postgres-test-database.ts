import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A throwaway PostgreSQL database: its connection URL, and how to remove it. */
export interface PostgresTestDatabase {
  url: string;
  drop(): Promise<void>;
}

const adminUrlVariable = 'GATEWAY_TEST_POSTGRES_URL';

/** True on a CI machine, where PostgreSQL tests must run rather than skip. */
export function isContinuousIntegration(): boolean {
  const value = process.env.CI;
  return value !== undefined && value !== '' && value !== 'false' && value !== '0';
}

/** Whether PostgreSQL suites should run: always in CI (and fail without a server), locally only when configured. */
export function shouldRunPostgresTests(): boolean {
  return Boolean(process.env[adminUrlVariable]) || isContinuousIntegration();
}

/**
 * Creates a fresh, uniquely named database on the server named by GATEWAY_TEST_POSTGRES_URL (an admin
 * connection URL). Returns undefined when the variable is unset locally; throws when it is unset in CI.
 */
export async function createPostgresTestDatabaseUrl(): Promise<PostgresTestDatabase | undefined> {
  const adminUrl = process.env[adminUrlVariable];
  if (!adminUrl) {
    if (isContinuousIntegration()) {
      throw new Error(`${adminUrlVariable} must be set in CI`);
    }
    return undefined;
  }
  const name = `gateway_test_${randomBytes(8).toString('hex')}`;
  // The name is generated above from hex digits only, so quoting it as an identifier is safe.
  await runAdminStatement(adminUrl, `CREATE DATABASE "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    // FORCE ends connections a failed test may have leaked, which would otherwise block the drop.
    drop: () => runAdminStatement(adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

async function runAdminStatement(adminUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
