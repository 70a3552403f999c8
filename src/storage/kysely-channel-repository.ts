import type { Selectable, Updateable } from 'kysely';
import type { DatabaseExecutor } from './database-executor.js';
import type { ChannelsTable } from './database-schema.js';
import type { RepositoryContext } from './repository-context.js';
import { requireOneRow } from './require-one-row.js';
import { rethrowConstraintViolation } from './rethrow-constraint-violation.js';
import type { ChannelChanges, ChannelRecord, NewChannel } from './store-records.js';

/** Upstream channels (vendor accounts); every write is a routing change. */
export interface ChannelRepository {
  createChannel(channel: NewChannel): Promise<ChannelRecord>;
  findChannelByName(name: string): Promise<ChannelRecord | undefined>;
  listChannels(): Promise<ChannelRecord[]>;
  updateChannel(channelId: string, changes: ChannelChanges): Promise<void>;
  deleteChannel(channelId: string): Promise<void>;
}

/** The channels repository over the gateway's database. */
export function createChannelRepository({
  database,
  clock,
  createId,
  writeWithRoutingRevision,
}: RepositoryContext): ChannelRepository {
  return {
    async createChannel(channel) {
      const now = clock();
      const record: ChannelRecord = {
        id: createId('chn'),
        name: channel.name,
        protocol: channel.protocol,
        preset: channel.preset,
        baseUrl: channel.baseUrl,
        encryptedSecret: channel.encryptedSecret,
        models: [...channel.models],
        modelMapping: { ...channel.modelMapping },
        settings: { ...(channel.settings ?? {}) },
        priority: channel.priority,
        weight: channel.weight,
        status: channel.status ?? 'enabled',
        createdAt: now,
        updatedAt: now,
      };
      await writeWithRoutingRevision((transaction) =>
        transaction.insertInto('channels').values(encodeChannel(record)).execute(),
      ).catch(rethrowConstraintViolation);
      return record;
    },

    async findChannelByName(name) {
      const row = await database.selectFrom('channels').selectAll().where('name', '=', name).executeTakeFirst();
      return row === undefined ? undefined : decodeChannel(row);
    },

    listChannels: () => listChannels(database),

    async updateChannel(channelId, changes) {
      await writeWithRoutingRevision(async (transaction) => {
        const result = await transaction
          .updateTable('channels')
          .set({ ...encodeChannelChanges(changes), updated_at: clock() })
          .where('id', '=', channelId)
          .executeTakeFirst();
        requireOneRow(result.numUpdatedRows, `channel ${channelId}`);
      }).catch(rethrowConstraintViolation);
    },

    async deleteChannel(channelId) {
      await writeWithRoutingRevision(async (transaction) => {
        const result = await transaction.deleteFrom('channels').where('id', '=', channelId).executeTakeFirst();
        requireOneRow(result.numDeletedRows, `channel ${channelId}`);
      });
    },
  };
}

/** Every channel, ordered by creation (then id). */
export async function listChannels(executor: DatabaseExecutor): Promise<ChannelRecord[]> {
  const rows = await executor.selectFrom('channels').selectAll().orderBy('created_at').orderBy('id').execute();
  return rows.map(decodeChannel);
}

function encodeChannel(record: ChannelRecord): ChannelsTable {
  return {
    id: record.id,
    name: record.name,
    protocol: record.protocol,
    preset: record.preset,
    base_url: record.baseUrl,
    encrypted_secret: record.encryptedSecret,
    models: JSON.stringify(record.models),
    model_mapping: JSON.stringify(record.modelMapping),
    settings: JSON.stringify(record.settings),
    priority: record.priority,
    weight: record.weight,
    status: record.status,
    created_at: record.createdAt,
    updated_at: record.updatedAt,
  };
}

function encodeChannelChanges(changes: ChannelChanges): Updateable<ChannelsTable> {
  const columns: Updateable<ChannelsTable> = {};
  if (changes.name !== undefined) columns.name = changes.name;
  if (changes.protocol !== undefined) columns.protocol = changes.protocol;
  if (changes.preset !== undefined) columns.preset = changes.preset;
  if (changes.baseUrl !== undefined) columns.base_url = changes.baseUrl;
  if (changes.encryptedSecret !== undefined) columns.encrypted_secret = changes.encryptedSecret;
  if (changes.models !== undefined) columns.models = JSON.stringify(changes.models);
  if (changes.modelMapping !== undefined) columns.model_mapping = JSON.stringify(changes.modelMapping);
  if (changes.settings !== undefined) columns.settings = JSON.stringify(changes.settings);
  if (changes.priority !== undefined) columns.priority = changes.priority;
  if (changes.weight !== undefined) columns.weight = changes.weight;
  if (changes.status !== undefined) columns.status = changes.status;
  return columns;
}

function decodeChannel(row: Selectable<ChannelsTable>): ChannelRecord {
  return {
    id: row.id,
    name: row.name,
    protocol: row.protocol,
    preset: row.preset,
    baseUrl: row.base_url,
    encryptedSecret: row.encrypted_secret,
    models: JSON.parse(row.models) as string[],
    modelMapping: JSON.parse(row.model_mapping) as Record<string, string>,
    settings: JSON.parse(row.settings) as Record<string, string>,
    priority: row.priority,
    weight: row.weight,
    status: row.status,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
