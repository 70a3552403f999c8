import type { Selectable } from 'kysely';
import type { DatabaseExecutor } from './database-executor.js';
import type { UsersTable } from './database-schema.js';
import type { RepositoryContext } from './repository-context.js';
import { requireOneRow } from './require-one-row.js';
import { rethrowConstraintViolation } from './rethrow-constraint-violation.js';
import type { NewUser, UserRecord } from './store-records.js';

/** Users: who signs in and owns keys. A new user is a routing change (its keys route once it is active). */
export interface UserRepository {
  createUser(user: NewUser): Promise<UserRecord>;
  findUserByEmail(email: string): Promise<UserRecord | undefined>;
  listUsers(): Promise<UserRecord[]>;
  /** replaces a user's password hash (re-hashing at current parameters); not a routing change */
  setUserPasswordHash(userId: string, passwordHash: string): Promise<void>;
  /** renames a user (what the console and the admin list show); not a routing change */
  setUserDisplayName(userId: string, displayName: string): Promise<void>;
}

/** The users repository over the gateway's database. */
export function createUserRepository({
  database,
  clock,
  createId,
  writeWithRoutingRevision,
}: RepositoryContext): UserRepository {
  return {
    async createUser(user) {
      const record: UserRecord = {
        id: createId('usr'),
        email: user.email,
        displayName: user.displayName,
        role: user.role,
        passwordHash: user.passwordHash,
        status: user.status ?? 'active',
        createdAt: clock(),
      };
      await writeWithRoutingRevision((transaction) =>
        transaction.insertInto('users').values(encodeUser(record)).execute(),
      ).catch(rethrowConstraintViolation);
      return record;
    },

    async findUserByEmail(email) {
      const row = await database.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
      return row === undefined ? undefined : decodeUser(row);
    },

    listUsers: () => listUsers(database),

    async setUserPasswordHash(userId, passwordHash) {
      const result = await database
        .updateTable('users')
        .set({ password_hash: passwordHash })
        .where('id', '=', userId)
        .executeTakeFirst();
      requireOneRow(result.numUpdatedRows, `user ${userId}`);
    },

    async setUserDisplayName(userId, displayName) {
      const result = await database
        .updateTable('users')
        .set({ display_name: displayName })
        .where('id', '=', userId)
        .executeTakeFirst();
      requireOneRow(result.numUpdatedRows, `user ${userId}`);
    },
  };
}

/** Every user, ordered by creation (then id, for equal timestamps) so lists are stable across engines. */
export async function listUsers(executor: DatabaseExecutor): Promise<UserRecord[]> {
  const rows = await executor.selectFrom('users').selectAll().orderBy('created_at').orderBy('id').execute();
  return rows.map(decodeUser);
}

/** Throws when no user has this id (checked inside the transaction that depends on it). */
export async function requireUser(executor: DatabaseExecutor, userId: string): Promise<void> {
  const row = await executor.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
  if (!row) throw new Error(`No user ${userId} exists`);
}

function encodeUser(record: UserRecord): UsersTable {
  return {
    id: record.id,
    email: record.email,
    display_name: record.displayName,
    role: record.role,
    password_hash: record.passwordHash,
    status: record.status,
    created_at: record.createdAt,
  };
}

/** A stored row as a record. */
export function decodeUser(row: Selectable<UsersTable>): UserRecord {
  return {
    id: row.id,
    email: row.email,
    displayName: row.display_name,
    role: row.role,
    passwordHash: row.password_hash,
    status: row.status,
    createdAt: row.created_at,
  };
}
