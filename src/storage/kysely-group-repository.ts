import type { Selectable } from 'kysely';
import type { DatabaseExecutor } from './database-executor.js';
import type { ModelGroupsTable, UserGroupsTable } from './database-schema.js';
import { requireUser } from './kysely-user-repository.js';
import type { RepositoryContext } from './repository-context.js';
import { requireOneRow } from './require-one-row.js';
import { isForeignKeyViolation, rethrowConstraintViolation } from './rethrow-constraint-violation.js';
import type { ModelGroupChanges, ModelGroupRecord, NewModelGroup, UserGroupGrantRecord } from './store-records.js';

/** Model groups and the grants that let users use them; every write is a routing change. */
export interface GroupRepository {
  /** the groups a user holds, by name */
  listUserGroups(userId: string): Promise<ModelGroupRecord[]>;
  /** every grant, or one user's */
  listUserGroupGrants(filter?: { userId?: string }): Promise<UserGroupGrantRecord[]>;
  /** makes the user hold exactly these groups (ids); keys in withdrawn groups stop routing at the next refresh */
  setUserGroups(userId: string, groupIds: readonly string[]): Promise<void>;
  /** adds grants; returns the ids the user did not hold before */
  grantUserGroups(userId: string, groupIds: readonly string[]): Promise<string[]>;
  /** removes grants; returns the ids the user held */
  revokeUserGroups(userId: string, groupIds: readonly string[]): Promise<string[]>;

  createModelGroup(group: NewModelGroup): Promise<ModelGroupRecord>;
  findModelGroupByName(name: string): Promise<ModelGroupRecord | undefined>;
  listModelGroups(): Promise<ModelGroupRecord[]>;
  setModelGroupModels(groupId: string, models: string[]): Promise<void>;
  /** changes a group's name, description or models (a routing change); a taken name throws */
  updateModelGroup(groupId: string, changes: ModelGroupChanges): Promise<void>;
  deleteModelGroup(groupId: string): Promise<void>;
}

/** The groups-and-grants repository over the gateway's database. */
export function createGroupRepository({
  database,
  clock,
  createId,
  writeWithRoutingRevision,
}: RepositoryContext): GroupRepository {
  return {
    async listUserGroups(userId) {
      const rows = await database
        .selectFrom('user_groups')
        .innerJoin('model_groups', 'model_groups.id', 'user_groups.group_id')
        .selectAll('model_groups')
        .where('user_groups.user_id', '=', userId)
        .orderBy('model_groups.name')
        .execute();
      return rows.map(decodeModelGroup);
    },

    listUserGroupGrants: (filter) => listUserGroupGrants(database, filter?.userId),

    async setUserGroups(userId, groupIds) {
      const wanted = [...new Set(groupIds)];
      await writeWithRoutingRevision(async (transaction) => {
        await requireUser(transaction, userId);
        let withdrawn = transaction.deleteFrom('user_groups').where('user_id', '=', userId);
        if (wanted.length > 0) withdrawn = withdrawn.where('group_id', 'not in', wanted);
        await withdrawn.execute();
        await insertGrants(transaction, userId, wanted, clock());
      }).catch(rethrowMissingGroup);
    },

    async grantUserGroups(userId, groupIds) {
      const wanted = [...new Set(groupIds)];
      return writeWithRoutingRevision(async (transaction) => {
        await requireUser(transaction, userId);
        const held = new Set((await listUserGroupGrants(transaction, userId)).map((grant) => grant.groupId));
        const added = wanted.filter((groupId) => !held.has(groupId));
        await insertGrants(transaction, userId, added, clock());
        return added;
      }).catch(rethrowMissingGroup);
    },

    async revokeUserGroups(userId, groupIds) {
      const unwanted = [...new Set(groupIds)];
      if (unwanted.length === 0) return [];
      return writeWithRoutingRevision(async (transaction) => {
        const held = new Set((await listUserGroupGrants(transaction, userId)).map((grant) => grant.groupId));
        await transaction
          .deleteFrom('user_groups')
          .where('user_id', '=', userId)
          .where('group_id', 'in', unwanted)
          .execute();
        return unwanted.filter((groupId) => held.has(groupId));
      });
    },

    async createModelGroup(group) {
      const record: ModelGroupRecord = {
        id: createId('grp'),
        name: group.name,
        description: group.description,
        models: [...group.models],
        createdAt: clock(),
      };
      await writeWithRoutingRevision((transaction) =>
        transaction.insertInto('model_groups').values(encodeModelGroup(record)).execute(),
      ).catch(rethrowConstraintViolation);
      return record;
    },

    async findModelGroupByName(name) {
      const row = await database.selectFrom('model_groups').selectAll().where('name', '=', name).executeTakeFirst();
      return row === undefined ? undefined : decodeModelGroup(row);
    },

    listModelGroups: () => listModelGroups(database),

    async setModelGroupModels(groupId, models) {
      await writeWithRoutingRevision(async (transaction) => {
        const result = await transaction
          .updateTable('model_groups')
          .set({ models: JSON.stringify(models) })
          .where('id', '=', groupId)
          .executeTakeFirst();
        requireOneRow(result.numUpdatedRows, `model group ${groupId}`);
      });
    },

    async updateModelGroup(groupId, changes) {
      const row: Partial<ModelGroupsTable> = {};
      if (changes.name !== undefined) row.name = changes.name;
      if (changes.description !== undefined) row.description = changes.description;
      if (changes.models !== undefined) row.models = JSON.stringify(changes.models);
      await writeWithRoutingRevision(async (transaction) => {
        if (Object.keys(row).length === 0) {
          const found = await transaction
            .selectFrom('model_groups')
            .select('id')
            .where('id', '=', groupId)
            .executeTakeFirst();
          requireOneRow(found === undefined ? 0n : 1n, `model group ${groupId}`);
          return;
        }
        const result = await transaction
          .updateTable('model_groups')
          .set(row)
          .where('id', '=', groupId)
          .executeTakeFirst();
        requireOneRow(result.numUpdatedRows, `model group ${groupId}`);
      }).catch(rethrowConstraintViolation);
    },

    async deleteModelGroup(groupId) {
      await writeWithRoutingRevision(async (transaction) => {
        const result = await transaction.deleteFrom('model_groups').where('id', '=', groupId).executeTakeFirst();
        requireOneRow(result.numDeletedRows, `model group ${groupId}`);
      }).catch((error: unknown) => {
        if (isForeignKeyViolation(error)) {
          throw new Error(
            `Model group ${groupId} is still used by API keys; move or delete those keys before deleting the group`,
            { cause: error },
          );
        }
        throw error;
      });
    },
  };
}

/** Every model group, ordered by creation (then id). */
export async function listModelGroups(executor: DatabaseExecutor): Promise<ModelGroupRecord[]> {
  const rows = await executor.selectFrom('model_groups').selectAll().orderBy('created_at').orderBy('id').execute();
  return rows.map(decodeModelGroup);
}

/** Every grant, or one user's, ordered by user then group. */
export async function listUserGroupGrants(
  executor: DatabaseExecutor,
  userId: string | undefined,
): Promise<UserGroupGrantRecord[]> {
  let query = executor.selectFrom('user_groups').selectAll();
  if (userId !== undefined) query = query.where('user_id', '=', userId);
  const rows = await query.orderBy('user_id').orderBy('group_id').execute();
  return rows.map(decodeUserGroupGrant);
}

/** Adds grants the user may already hold; a concurrent grant of the same group is not an error. */
export async function insertGrants(
  executor: DatabaseExecutor,
  userId: string,
  groupIds: readonly string[],
  createdAt: number,
): Promise<void> {
  if (groupIds.length === 0) return;
  const rows: UserGroupsTable[] = groupIds.map((groupId) => ({
    user_id: userId,
    group_id: groupId,
    created_at: createdAt,
  }));
  await executor
    .insertInto('user_groups')
    .values(rows)
    .onConflict((conflict) => conflict.columns(['user_id', 'group_id']).doNothing())
    .execute();
}

/** A grant naming a group that does not exist (or was deleted meanwhile) fails its foreign key. */
function rethrowMissingGroup(error: unknown): never {
  if (isForeignKeyViolation(error)) throw new Error('A model group to grant does not exist', { cause: error });
  throw error;
}

function decodeUserGroupGrant(row: Selectable<UserGroupsTable>): UserGroupGrantRecord {
  return { userId: row.user_id, groupId: row.group_id, createdAt: Number(row.created_at) };
}

function encodeModelGroup(record: ModelGroupRecord): ModelGroupsTable {
  return {
    id: record.id,
    name: record.name,
    description: record.description,
    models: JSON.stringify(record.models),
    created_at: record.createdAt,
  };
}

/** A stored row as a record. */
export function decodeModelGroup(row: Selectable<ModelGroupsTable>): ModelGroupRecord {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    models: JSON.parse(row.models) as string[],
    createdAt: row.created_at,
  };
}
