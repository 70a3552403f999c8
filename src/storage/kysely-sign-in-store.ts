import type { Selectable } from 'kysely';
import { createRecordId } from '../core/create-record-id.js';
import { createDatabase, type CreatedDatabase } from './create-database.js';
import type {
  AdminTokenExpiryColumns,
  AdminTokensTable,
  ConsoleSessionSignInColumns,
  ConsoleSessionsTable,
  IdentitiesTable,
} from './database-schema.js';
import { runMigrations } from './run-migrations.js';
import type { AdminTokenRecord, ConsoleSessionRecord, IdentityProvider, IdentityRecord } from './sign-in-records.js';
import { IdentityTakenError, type SignInStore } from './sign-in-store.js';

/** How to open the sign-in store. */
export interface SignInStoreOptions {
  /** `sqlite:<path>` or `postgres://...`, when no opened database is given */
  databaseUrl?: string;
  /** an already opened database to share (then `close()` leaves it open for its owner) */
  database?: CreatedDatabase;
  /** current time in Unix milliseconds */
  clock?: () => number;
}

/** How stale `last_seen_at` may get before a request writes it again, in milliseconds (one write a minute at most). */
const lastSeenResolutionMs = 60_000;

/** The SignInStore over Kysely (SQLite or PostgreSQL). */
export function createSignInStore(options: SignInStoreOptions): SignInStore {
  const opened = options.database ?? createDatabase(requireUrl(options.databaseUrl));
  const { database, dialect } = opened;
  const ownsDatabase = options.database === undefined;
  const clock = options.clock ?? Date.now;

  return {
    migrate: () => runMigrations(database),
    close: async () => {
      if (ownsDatabase) await database.destroy();
    },

    async findIdentity(provider, subject) {
      const row = await database
        .selectFrom('identities')
        .selectAll()
        .where('provider', '=', provider)
        .where('subject', '=', subject)
        .executeTakeFirst();
      return row === undefined ? undefined : decodeIdentity(row);
    },

    async createIdentity(identity) {
      const now = clock();
      const record: IdentityRecord = { id: createRecordId('idn', now), ...identity, createdAt: now, lastUsedAt: now };
      await database
        .insertInto('identities')
        .values({
          id: record.id,
          user_id: record.userId,
          provider: record.provider,
          subject: record.subject,
          email: record.email,
          display_name: record.displayName,
          created_at: record.createdAt,
          last_used_at: record.lastUsedAt,
        })
        .execute()
        .catch((error: unknown) => {
          if (isUniqueViolation(error)) throw new IdentityTakenError();
          throw error;
        });
      return record;
    },

    async touchIdentity(identityId, changes) {
      await database
        .updateTable('identities')
        .set({ email: changes.email, display_name: changes.displayName, last_used_at: changes.lastUsedAt })
        .where('id', '=', identityId)
        .execute();
    },

    async listIdentities(userId) {
      const rows = await database
        .selectFrom('identities')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(decodeIdentity);
    },

    deleteIdentity(userId, identityId) {
      return database.transaction().execute(async (transaction) => {
        const user = await transaction
          .selectFrom('users')
          .select('password_hash')
          .where('id', '=', userId)
          // SQLite has no row locks (its write transaction is the lock); PostgreSQL locks the user's row.
          .$if(dialect === 'postgres', (query) => query.forUpdate())
          .executeTakeFirst();
        const identities = await transaction
          .selectFrom('identities')
          .select('id')
          .where('user_id', '=', userId)
          .execute();
        if (user === undefined || !identities.some((identity) => identity.id === identityId))
          return { removed: false, lastWayIn: false };
        if (user.password_hash === null && identities.length === 1) return { removed: false, lastWayIn: true };
        await transaction.deleteFrom('identities').where('id', '=', identityId).execute();
        return { removed: true, lastWayIn: false };
      });
    },

    async createSession(session) {
      const now = clock();
      const record: ConsoleSessionRecord = {
        id: createRecordId('ses', now),
        userId: session.userId,
        createdAt: now,
        lastSeenAt: now,
        expiresAt: session.expiresAt,
        userAgent: session.userAgent,
        clientIp: session.clientIp,
      };
      await database
        .insertInto('console_sessions')
        .values({
          token_hash: session.tokenHash,
          id: record.id,
          user_id: record.userId,
          created_at: now,
          last_seen_at: now,
          expires_at: record.expiresAt,
          user_agent: record.userAgent,
          client_ip: record.clientIp,
        })
        .execute();
      return record;
    },

    async findSession(tokenHash, now) {
      const row = await database
        .selectFrom('console_sessions')
        .innerJoin('users', 'users.id', 'console_sessions.user_id')
        .selectAll('console_sessions')
        .select([
          'users.email',
          'users.display_name',
          'users.role',
          'users.password_hash',
          'users.status',
          'users.created_at as user_created_at',
        ])
        .where('console_sessions.token_hash', '=', tokenHash)
        .where('console_sessions.expires_at', '>', now)
        .executeTakeFirst();
      if (row === undefined) return undefined;
      const session = decodeSession(row);
      if (now - session.lastSeenAt >= lastSeenResolutionMs) {
        await database
          .updateTable('console_sessions')
          .set({ last_seen_at: now })
          .where('token_hash', '=', tokenHash)
          .execute();
        session.lastSeenAt = now;
      }
      return {
        session,
        user: {
          id: row.user_id,
          email: row.email,
          displayName: row.display_name,
          role: row.role,
          passwordHash: row.password_hash,
          status: row.status,
          createdAt: Number(row.user_created_at),
        },
      };
    },

    async listSessions(userId, now) {
      const rows = await database
        .selectFrom('console_sessions')
        .selectAll()
        .where('user_id', '=', userId)
        .where('expires_at', '>', now)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      return rows.map(decodeSession);
    },

    async deleteSessionByTokenHash(tokenHash) {
      await database.deleteFrom('console_sessions').where('token_hash', '=', tokenHash).execute();
    },

    async deleteSession(userId, sessionId) {
      const result = await database
        .deleteFrom('console_sessions')
        .where('user_id', '=', userId)
        .where('id', '=', sessionId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async deleteOtherSessions(userId, keepSessionId) {
      let query = database.deleteFrom('console_sessions').where('user_id', '=', userId);
      if (keepSessionId !== undefined) query = query.where('id', '!=', keepSessionId);
      const result = await query.executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async createAdminToken(token) {
      const now = clock();
      const record: AdminTokenRecord = {
        id: createRecordId('adm', now),
        name: token.name,
        createdAt: now,
        expiresAt: token.expiresAt,
      };
      await database
        .insertInto('admin_tokens')
        .values({
          token_hash: token.tokenHash,
          id: record.id,
          name: record.name,
          created_at: now,
          expires_at: record.expiresAt,
        })
        .execute();
      return record;
    },

    async findAdminToken(tokenHash, now) {
      const row = await database
        .selectFrom('admin_tokens')
        .selectAll()
        .where('token_hash', '=', tokenHash)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return row === undefined ? undefined : decodeAdminToken(row);
    },

    async listAdminTokens() {
      const rows = await database.selectFrom('admin_tokens').selectAll().orderBy('created_at').orderBy('id').execute();
      return rows.map(decodeAdminToken);
    },

    async deleteAdminToken(tokenId) {
      const result = await database.deleteFrom('admin_tokens').where('id', '=', tokenId).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}

function decodeIdentity(row: Selectable<IdentitiesTable>): IdentityRecord {
  return {
    id: row.id,
    userId: row.user_id,
    provider: row.provider as IdentityProvider,
    subject: row.subject,
    email: row.email,
    displayName: row.display_name,
    createdAt: Number(row.created_at),
    lastUsedAt: Number(row.last_used_at),
  };
}

function decodeSession(row: Selectable<ConsoleSessionsTable & ConsoleSessionSignInColumns>): ConsoleSessionRecord {
  return {
    id: row.id,
    userId: row.user_id,
    createdAt: Number(row.created_at),
    lastSeenAt: Number(row.last_seen_at),
    expiresAt: Number(row.expires_at),
    userAgent: row.user_agent,
    clientIp: row.client_ip,
  };
}

function decodeAdminToken(row: Selectable<AdminTokensTable & AdminTokenExpiryColumns>): AdminTokenRecord {
  return { id: row.id, name: row.name, createdAt: Number(row.created_at), expiresAt: Number(row.expires_at) };
}

// better-sqlite3 sets `code` to SQLITE_CONSTRAINT_UNIQUE; pg sets the SQLSTATE 23505.
function isUniqueViolation(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

function requireUrl(databaseUrl: string | undefined): string {
  if (!databaseUrl) throw new Error('createSignInStore needs a databaseUrl or an opened database');
  return databaseUrl;
}
