// Which database failures are the database being down (503 with Retry-After for the request) and which are the
// statement's own (left as they are, so conflicts and constraint errors keep their meaning).
import { describe, expect, it } from 'vitest';
import { mapDatabaseError } from '../../src/storage/map-database-error.js';
import { StoreUnavailableError } from '../../src/storage/store-unavailable-error.js';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('mapDatabaseError', () => {
  it.each([
    [
      'a fast shutdown (pg_ctl restart -m fast)',
      withCode('terminating connection due to administrator command', '57P01'),
    ],
    ['a server starting or stopping', withCode('the database system is shutting down', '57P03')],
    ['a statement timeout', withCode('canceling statement due to statement timeout', '57014')],
    ['a connection exception', withCode('connection failure', '08006')],
    ['a refused connection', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['a connection the server ended', new Error('Connection terminated unexpectedly')],
    ['a connect timeout', new Error('timeout exceeded when trying to connect')],
    ['a client-side query timeout', new Error('Query read timeout')],
    ['a SQLite file locked past the busy timeout', withCode('database is locked', 'SQLITE_BUSY')],
    ['a SQLite file that cannot be written', withCode('disk I/O error', 'SQLITE_IOERR_WRITE')],
  ])('answers %s with 503 and Retry-After', (_name, error) => {
    const mapped = mapDatabaseError(error);
    expect(mapped).toBeInstanceOf(StoreUnavailableError);
    expect(mapped).toMatchObject({
      status: 503,
      code: 'service_unavailable',
      store: 'database',
      headers: { 'retry-after': '1' },
      cause: error,
    });
  });

  it.each([
    ['a unique violation', withCode('duplicate key value violates unique constraint', '23505')],
    ['a SQLite constraint', withCode('UNIQUE constraint failed: users.email', 'SQLITE_CONSTRAINT_UNIQUE')],
    ['a syntax error', withCode('syntax error at or near "selec"', '42601')],
    ['a value that is not an error', 'boom'],
  ])('leaves %s as it is', (_name, error) => {
    expect(mapDatabaseError(error)).toBe(error);
  });
});
