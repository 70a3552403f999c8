import type { CompiledQuery } from 'kysely';

/** A Kysely query as `build` returns it: compiled to SQL by the runner that holds a connection, or executed by Kysely. */
export interface BuiltStatement<Row> {
  compile(): CompiledQuery<Row>;
  execute(): Promise<Row[]>;
}

/**
 * Runs statements whose shape never changes on a connection owned by the caller's thread, with no await: each
 * statement is built and compiled by Kysely once per `name`, with placeholders for `args`, and later calls only put
 * `args` in its parameters. `build` must make the same SQL whatever its arguments (no branch on them, no arithmetic on
 * them): they are placeholders when it is compiled.
 */
export interface CompiledStatements {
  /** the rows the statement returns */
  all<Args extends readonly unknown[], Row>(
    name: string,
    build: (...args: Args) => BuiltStatement<Row>,
    args: Args,
  ): Row[];
  /** how many rows an INSERT, UPDATE or DELETE changed */
  run<Args extends readonly unknown[], Row>(
    name: string,
    build: (...args: Args) => BuiltStatement<Row>,
    args: Args,
  ): number;
}
