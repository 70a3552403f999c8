// Statements compiled once per name (the SQLite settlement writer's): each call must run exactly the SQL and parameters
// Kysely would build for its arguments, and a statement that cannot be compiled once must be refused, not run wrong.
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCompiledStatements } from '../../src/storage/sqlite-worker/create-compiled-statements.js';
import {
  createStatementCachingConnection,
  type StatementCachingConnection,
} from '../../src/storage/sqlite-worker/prepared-statement-cache.js';

interface CountersTable {
  id: string;
  total: number;
  touched_at: number | null;
}

interface TestSchema {
  counters: CountersTable;
}

describe('statements compiled once per name', () => {
  let connection: StatementCachingConnection;
  let database: Kysely<TestSchema>;

  beforeEach(async () => {
    connection = createStatementCachingConnection(new SqliteDatabase(':memory:'));
    database = new Kysely<TestSchema>({ dialect: new SqliteDialect({ database: connection.database }) });
    await database.schema
      .createTable('counters')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('total', 'integer', (column) => column.notNull())
      .addColumn('touched_at', 'integer')
      .execute();
  });

  afterEach(async () => {
    await database.destroy();
  });

  const insertCounter = (id: string, total: number) =>
    database
      .insertInto('counters')
      .values({ id, total, touched_at: null })
      .onConflict((conflict) => conflict.column('id').doNothing());
  // `total + ? + 1`: a constant of the statement (1) sits between the arguments' parameters.
  const addToCounter = (amount: number, id: string) =>
    database
      .updateTable('counters')
      .set((expression) => ({ total: expression(expression('total', '+', amount), '+', 1) }))
      .where('id', '=', id)
      .returning(['id', 'total']);

  it('runs each call with its own arguments, in the parameters Kysely would give them, constants kept', () => {
    const statements = createCompiledStatements(connection.database);
    expect(statements.run('insert', insertCounter, ['a', 10])).toBe(1);
    expect(statements.run('insert', insertCounter, ['b', 20])).toBe(1);
    // ON CONFLICT DO NOTHING: a row already there changes nothing.
    expect(statements.run('insert', insertCounter, ['a', 99])).toBe(0);
    expect(statements.all('add', addToCounter, [5, 'a'])).toEqual([{ id: 'a', total: 16 }]);
    expect(statements.all('add', addToCounter, [7, 'b'])).toEqual([{ id: 'b', total: 28 }]);
    // An UPDATE without RETURNING answers no rows instead of failing.
    expect(
      statements.all(
        'touch',
        (id: string, at: number) => database.updateTable('counters').set({ touched_at: at }).where('id', '=', id),
        ['b', 1234],
      ),
    ).toEqual([]);
    const rows = connection.database.prepare('select id, total, touched_at from counters order by id').all([]);
    expect(rows).toEqual([
      { id: 'a', total: 16, touched_at: null },
      { id: 'b', total: 28, touched_at: 1234 },
    ]);
  });

  it('builds and prepares each statement once, however often it runs', () => {
    const statements = createCompiledStatements(connection.database);
    let builds = 0;
    const countedInsert = (id: string, total: number) => {
      builds += 1;
      return insertCounter(id, total);
    };
    const preparesBefore = connection.statistics().prepares;
    for (let index = 0; index < 20; index++) statements.run('insert', countedInsert, [`id-${index}`, index]);
    expect(builds).toBe(1);
    expect(connection.statistics().prepares - preparesBefore).toBe(1);
  });

  it('refuses a statement that computes with an argument instead of passing it as a parameter, and a call with the wrong number of arguments', () => {
    const statements = createCompiledStatements(connection.database);
    // Compiled once, the doubled amount would be the first call's for every later call.
    const doubling = (amount: number, id: string) => addToCounter(amount * 2, id);
    expect(() => statements.all('doubling', doubling, [3, 'a'])).toThrow(
      'must use each of its 2 arguments as a parameter',
    );
    statements.run('insert', insertCounter, ['a', 1]);
    expect(() =>
      statements.run('insert', insertCounter as unknown as (id: string) => ReturnType<typeof insertCounter>, ['b']),
    ).toThrow('compiled for 2 arguments, called with 1');
  });
});
