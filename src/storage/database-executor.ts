import type { Kysely, Transaction } from 'kysely';
import type { DatabaseSchema } from './database-schema.js';

/** The database or an open transaction on it: repository helpers run in either. */
export type DatabaseExecutor = Kysely<DatabaseSchema> | Transaction<DatabaseSchema>;
