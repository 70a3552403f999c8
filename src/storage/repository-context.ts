import type { Kysely, Transaction } from 'kysely';
import type { DatabaseSchema } from './database-schema.js';
import type { KeyChangeOutcome } from './write-key-change-with-revision.js';

/** What every repository of the gateway store is built from; `createGatewayStore` makes one and shares it. */
export interface RepositoryContext {
  database: Kysely<DatabaseSchema>;
  /** current time in Unix milliseconds */
  clock: () => number;
  /** a new unique id for a record kind (`usr`, `grp`, `chn`, `key`, `aud`) */
  createId: (prefix: string) => string;
  /** runs a write and bumps the routing revision in the same transaction, so every node notices it */
  writeWithRoutingRevision: <Result>(
    work: (transaction: Transaction<DatabaseSchema>) => Promise<Result>,
  ) => Promise<Result>;
  /** the same for a write to one API key, logging which key the revision changed (see writeKeyChangeWithRevision) */
  writeKeyChangeWithRoutingRevision: <Result>(
    work: (transaction: Transaction<DatabaseSchema>) => Promise<KeyChangeOutcome<Result>>,
  ) => Promise<Result>;
}
