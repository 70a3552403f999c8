import type { SqliteDatabase } from 'kysely';
import type { BuiltStatement, CompiledStatements } from '../compiled-statements.js';

/** Stands for the argument at `index` while a statement is compiled: Kysely turns it into a parameter like any value. */
class StatementArgument {
  constructor(readonly index: number) {}
}

/** Where each parameter of a compiled statement comes from: an argument's index, or a value fixed in the statement. */
type ParameterSource = { argument: number } | { constant: unknown };

/** A statement compiled once: its SQL and where its parameters come from. */
interface StatementShape {
  sql: string;
  parameters: ParameterSource[];
  argumentCount: number;
  /** true when the parameters are the arguments in order: they are bound as given, with no array copied per call */
  bindsArgumentsAsGiven: boolean;
}

/**
 * Statements compiled once per name on `database` (SQLite, in the thread that owns the connection). Building and
 * compiling a statement with Kysely costs 25–300 µs (less the hotter it runs); the settlement batch writer runs about
 * seven per batch, at 10 to 20 batches a second under load, so they never got hot and cost the writer about a tenth of
 * its time. Prepared statements are reused by SQL text through `database.prepare` (the statement cache).
 */
export function createCompiledStatements(database: SqliteDatabase): CompiledStatements {
  const shapes = new Map<string, StatementShape>();

  function parametersOf<Args extends readonly unknown[], Row>(
    name: string,
    build: (...args: Args) => BuiltStatement<Row>,
    args: Args,
  ): { sql: string; values: readonly unknown[] } {
    let shape = shapes.get(name);
    if (shape === undefined) {
      shape = compileShape(build, args.length);
      shapes.set(name, shape);
    }
    if (args.length !== shape.argumentCount)
      throw new Error(
        `Statement ${name} was compiled for ${shape.argumentCount} arguments, called with ${args.length}`,
      );
    if (shape.bindsArgumentsAsGiven) return { sql: shape.sql, values: args };
    const values = shape.parameters.map((source) => ('argument' in source ? args[source.argument] : source.constant));
    return { sql: shape.sql, values };
  }

  return {
    all<Args extends readonly unknown[], Row>(
      name: string,
      build: (...args: Args) => BuiltStatement<Row>,
      args: Args,
    ): Row[] {
      const { sql, values } = parametersOf(name, build, args);
      const statement = database.prepare(sql);
      // better-sqlite3 refuses all() on a statement that returns no rows (an UPDATE without RETURNING).
      if (statement.reader) return statement.all(values) as Row[];
      statement.run(values);
      return [];
    },
    run(name, build, args) {
      const { sql, values } = parametersOf(name, build, args);
      return Number(database.prepare(sql).run(values).changes);
    },
  };
}

function compileShape<Args extends readonly unknown[], Row>(
  build: (...args: Args) => BuiltStatement<Row>,
  argumentCount: number,
): StatementShape {
  const placeholders = Array.from({ length: argumentCount }, (_, index) => new StatementArgument(index));
  const compiled = build(...(placeholders as unknown as Args)).compile();
  const parameters = compiled.parameters.map((parameter): ParameterSource =>
    parameter instanceof StatementArgument ? { argument: parameter.index } : { constant: parameter },
  );
  const used = new Set(parameters.flatMap((source) => ('argument' in source ? [source.argument] : [])));
  // An argument that is not a parameter was used by `build` itself (a branch, arithmetic): the SQL would be wrong.
  if (used.size !== argumentCount)
    throw new Error(
      `A compiled statement must use each of its ${argumentCount} arguments as a parameter; it used ${used.size}`,
    );
  const bindsArgumentsAsGiven =
    parameters.length === argumentCount &&
    parameters.every((source, index) => 'argument' in source && source.argument === index);
  return { sql: compiled.sql, parameters, argumentCount, bindsArgumentsAsGiven };
}
