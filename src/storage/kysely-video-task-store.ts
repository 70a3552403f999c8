import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { createRecordId } from '../core/create-record-id.js';
import type { StoredBalance } from './billing-records.js';
import type { DatabaseSchema, VideoTasksTable } from './database-schema.js';
import type { VideoTaskStore } from './video-task-store.js';
import type {
  NewVideoTask,
  TaskHoldMismatch,
  VideoTaskRecord,
  VideoTaskRowState,
  VideoTaskRowSurface,
} from './video-task-records.js';
import { writeWithRevision } from './write-with-revision.js';

const terminalStates: readonly VideoTaskRowState[] = ['completed', 'failed'];
const runningStates: readonly VideoTaskRowState[] = ['queued', 'in-progress'];

/** The video task store over the gateway's database (migration 0016); share the gateway's Kysely instance. */
export function createVideoTaskStore(database: Kysely<DatabaseSchema>): VideoTaskStore {
  return {
    async createWithHold(task) {
      if (!Number.isSafeInteger(task.heldAmount) || task.heldAmount < 0)
        throw new Error('A hold must be a non-negative integer of micro-units');
      try {
        return await writeWithRevision(database, 'billing_revision', async (transaction) => {
          const balance =
            task.heldAmount > 0 ? await takeHold(transaction, task) : await readMoney(transaction, task.userId);
          await transaction.insertInto('video_tasks').values(encodeNewTask(task)).execute();
          if (task.heldAmount > 0) {
            await insertLedgerEntry(transaction, {
              userId: task.userId,
              kind: 'hold',
              amount: -task.heldAmount,
              description: `video task hold (${task.seconds} s of ${task.publicModel})`,
              taskId: task.id,
              now: task.createdAt,
            });
          }
          const stored = await requireTask(transaction, task.id);
          return { outcome: 'held' as const, task: stored, balance };
        });
      } catch (error) {
        if (error instanceof HoldRefused) return { outcome: error.reason };
        throw error;
      }
    },

    async recordSubmission(taskId, version, submission) {
      const result = await database
        .updateTable('video_tasks')
        .set((expression) => ({
          channel_id: submission.channelId,
          vendor_task_id: submission.vendorTaskId,
          next_poll_at: submission.nextPollAt,
          version: expression('version', '+', 1),
        }))
        .where('id', '=', taskId)
        .where('version', '=', version)
        .where('state', '=', 'queued')
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return undefined;
      return findTask(database, taskId);
    },

    async change(taskId, version, from, change, now) {
      if (from.length === 0) return { outcome: 'stale' };
      if (change.kind === 'progress') {
        const result = await database
          .updateTable('video_tasks')
          .set((expression) => ({
            state: change.state,
            progress: Math.max(0, Math.min(99, Math.round(change.progress))),
            started_at:
              change.state === 'in-progress'
                ? expression.fn.coalesce('started_at', sql.lit(now))
                : expression.ref('started_at'),
            version: expression('version', '+', 1),
          }))
          .where('id', '=', taskId)
          .where('version', '=', version)
          .where('state', 'in', from)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) !== 1) return { outcome: 'stale' };
        return {
          outcome: 'applied',
          task: await requireTask(database, taskId),
          balance: undefined,
          released: 0,
          charged: 0,
        };
      }
      const attempt = await writeWithRevision(database, 'billing_revision', async (transaction) => {
        const before = await transaction
          .selectFrom('video_tasks')
          .select(['held_amount', 'open_hold', 'user_id', 'api_key_id'])
          .where('id', '=', taskId)
          .executeTakeFirst();
        if (before === undefined) return undefined;
        const held = Number(before.open_hold);
        const cost = change.kind === 'complete' ? Math.min(Math.max(0, change.cost), held) : 0;
        const terminal =
          change.kind === 'complete'
            ? {
                state: 'completed',
                progress: 100,
                settled_amount: cost,
                generated_seconds: change.generatedSeconds,
                content_location: change.contentLocation,
              }
            : { state: 'failed', error_code: change.code, error_message: change.message };
        const result = await transaction
          .updateTable('video_tasks')
          .set((expression) => ({
            ...terminal,
            open_hold: 0,
            completed_at: now,
            lease_owner: null,
            lease_until: null,
            version: expression('version', '+', 1),
          }))
          .where('id', '=', taskId)
          .where('version', '=', version)
          .where('state', 'in', from)
          .executeTakeFirst();
        // Lost the race (or a refused transition): nothing else is written, so the money moves exactly once.
        if (Number(result.numUpdatedRows) !== 1) return undefined;
        const userId = before.user_id;
        const updated = await transaction
          .updateTable('users')
          .set((expression) => ({
            balance: expression('balance', '+', held - cost),
            balance_sequence: expression('balance_sequence', '+', 1),
          }))
          .where('id', '=', userId)
          .returning(['balance', 'debt', 'balance_sequence'])
          .executeTakeFirstOrThrow();
        await transaction
          .updateTable('api_keys')
          .set((expression) => ({ spent: expression('spent', '-', held - cost) }))
          .where('id', '=', before.api_key_id)
          .execute();
        if (held > 0)
          await insertLedgerEntry(transaction, {
            userId,
            kind: 'refund',
            amount: held,
            description: 'video task hold released',
            taskId,
            now,
          });
        if (cost > 0)
          await insertLedgerEntry(transaction, {
            userId,
            kind: 'settlement',
            amount: -cost,
            description: 'video task settled',
            taskId,
            now,
          });
        const balance: StoredBalance = {
          userId,
          balance: Number(updated.balance),
          debt: Number(updated.debt),
          sequence: Number(updated.balance_sequence),
        };
        return { balance, released: held, charged: cost };
      });
      if (attempt === undefined) return { outcome: 'stale' };
      return { outcome: 'applied', task: await requireTask(database, taskId), ...attempt };
    },

    find: (taskId) => findTask(database, taskId),

    async listForUser(userId, options) {
      let query = database
        .selectFrom('video_tasks')
        .selectAll()
        .where('user_id', '=', userId)
        .where('deleted_at', 'is', null);
      if (options.after !== undefined) {
        const cursor = await database
          .selectFrom('video_tasks')
          .select(['created_at', 'id'])
          .where('id', '=', options.after)
          .where('user_id', '=', userId)
          .executeTakeFirst();
        if (cursor !== undefined) {
          const comparison = options.order === 'desc' ? '<' : '>';
          const createdAt = Number(cursor.created_at);
          query = query.where((expression) =>
            expression.or([
              expression('created_at', comparison, createdAt),
              expression.and([expression('created_at', '=', createdAt), expression('id', comparison, cursor.id)]),
            ]),
          );
        }
      }
      const rows = await query
        .orderBy('created_at', options.order)
        .orderBy('id', options.order)
        .limit(options.limit)
        .execute();
      return rows.map(decodeTask);
    },

    async markDeleted(taskId, now) {
      await database
        .updateTable('video_tasks')
        .set({ deleted_at: now })
        .where('id', '=', taskId)
        .where('deleted_at', 'is', null)
        .execute();
    },

    async claimDue(owner, now, leaseMs, limit) {
      const candidates = await database
        .selectFrom('video_tasks')
        .select('id')
        .where((expression) =>
          expression.and([
            expression.or([expression('lease_until', 'is', null), expression('lease_until', '<', now)]),
            expression.or([
              expression.and([expression('state', 'in', runningStates), expression('next_poll_at', '<=', now)]),
              expression.and([
                expression('expires_at', '<=', now),
                expression('content_location', 'is not', null),
                expression('content_removed_at', 'is', null),
              ]),
            ]),
          ]),
        )
        .orderBy('next_poll_at')
        .limit(limit)
        .execute();
      const claimed: VideoTaskRecord[] = [];
      for (const { id } of candidates) {
        // Another poller may claim the same row between the select and here: only one update matches.
        const result = await database
          .updateTable('video_tasks')
          .set({ lease_owner: owner, lease_until: now + leaseMs })
          .where('id', '=', id)
          .where((expression) =>
            expression.or([expression('lease_until', 'is', null), expression('lease_until', '<', now)]),
          )
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 1) claimed.push(await requireTask(database, id));
      }
      return claimed;
    },

    async releaseLease(taskId, owner, update) {
      await database
        .updateTable('video_tasks')
        .set({
          lease_owner: null,
          lease_until: null,
          next_poll_at: update.nextPollAt,
          poll_attempts: update.pollAttempts,
        })
        .where('id', '=', taskId)
        .where('lease_owner', '=', owner)
        .execute();
    },

    async markContentRemoved(taskId, now) {
      await database
        .updateTable('video_tasks')
        .set({ content_removed_at: now, lease_owner: null, lease_until: null })
        .where('id', '=', taskId)
        .execute();
    },

    async findTaskHoldMismatches() {
      const rows = await database
        .selectFrom('video_tasks')
        .select(['id', 'user_id', 'state', 'held_amount', 'open_hold', 'settled_amount'])
        .select(
          sql<number>`(select cast(coalesce(sum(amount), 0) as bigint) from ledger_entries where ledger_entries.reference = video_tasks.id)`.as(
            'ledger_sum',
          ),
        )
        .select(
          sql<number>`(select cast(coalesce(sum(case when kind = 'hold' then amount else 0 end), 0) as bigint) from ledger_entries where ledger_entries.reference = video_tasks.id)`.as(
            'ledger_hold',
          ),
        )
        .orderBy('id')
        .execute();
      const mismatches: TaskHoldMismatch[] = [];
      for (const row of rows) {
        const openHold = Number(row.open_hold);
        const settled = Number(row.settled_amount);
        const terminal = terminalStates.includes(row.state as VideoTaskRowState);
        const mismatch = (problem: string) =>
          mismatches.push({ taskId: row.id, userId: row.user_id, state: row.state, problem });
        if (terminal && openHold !== 0) mismatch(`terminal task keeps a hold of ${openHold} micro-units`);
        if (!terminal && openHold !== Number(row.held_amount))
          mismatch(`running task holds ${openHold} micro-units, not the ${Number(row.held_amount)} it took`);
        if (-Number(row.ledger_hold) !== Number(row.held_amount))
          mismatch(
            `hold ledger entries sum to ${-Number(row.ledger_hold)} micro-units, the task took ${Number(row.held_amount)}`,
          );
        if (-Number(row.ledger_sum) !== openHold + settled)
          mismatch(
            `ledger entries sum to ${-Number(row.ledger_sum)} micro-units, the task holds ${openHold} and was charged ${settled}`,
          );
      }
      // A hold entry naming no task would be money held for nothing.
      const orphans = await database
        .selectFrom('ledger_entries')
        .select(['reference', 'user_id'])
        .where('kind', '=', 'hold')
        .where((expression) =>
          expression.not(
            expression.exists(
              expression
                .selectFrom('video_tasks')
                .select('id')
                .whereRef('video_tasks.id', '=', 'ledger_entries.reference'),
            ),
          ),
        )
        .execute();
      for (const orphan of orphans)
        mismatches.push({
          taskId: orphan.reference ?? '',
          userId: orphan.user_id,
          state: 'missing',
          problem: 'hold ledger entry names no task',
        });
      return mismatches;
    },
  };
}

/** Takes a hold: the key's spend within its cap, then the balance when it covers the hold and no debt stands. */
async function takeHold(transaction: Transaction<DatabaseSchema>, task: NewVideoTask): Promise<StoredBalance> {
  const money = await readMoney(transaction, task.userId);
  if (money.debt > 0) throw new HoldRefused('debt');
  const key = await transaction
    .updateTable('api_keys')
    .set((expression) => ({ spent: expression('spent', '+', task.heldAmount) }))
    .where('id', '=', task.apiKeyId)
    .where((expression) =>
      expression.or([
        expression('spending_cap', 'is', null),
        expression(expression('spent', '+', task.heldAmount), '<=', expression.ref('spending_cap')),
      ]),
    )
    .executeTakeFirst();
  if (Number(key.numUpdatedRows) !== 1) throw new HoldRefused('cap');
  // The conditional update is the durable check: no node can hold money the stored balance does not have.
  const updated = await transaction
    .updateTable('users')
    .set((expression) => ({
      balance: expression('balance', '-', task.heldAmount),
      balance_sequence: expression('balance_sequence', '+', 1),
    }))
    .where('id', '=', task.userId)
    .where('balance', '>=', task.heldAmount)
    .where('debt', '=', 0)
    .returning(['balance', 'debt', 'balance_sequence'])
    .executeTakeFirst();
  if (updated === undefined) throw new HoldRefused('insufficient');
  return {
    userId: task.userId,
    balance: Number(updated.balance),
    debt: Number(updated.debt),
    sequence: Number(updated.balance_sequence),
  };
}

/** A user's stored money; a missing user holds nothing. */
async function readMoney(transaction: Transaction<DatabaseSchema>, userId: string): Promise<StoredBalance> {
  const row = await transaction
    .selectFrom('users')
    .select(['balance', 'debt', 'balance_sequence'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (row === undefined) throw new HoldRefused('insufficient');
  return { userId, balance: Number(row.balance), debt: Number(row.debt), sequence: Number(row.balance_sequence) };
}

/** Why a hold was refused, thrown to roll the transaction back. */
class HoldRefused extends Error {
  constructor(readonly reason: 'insufficient' | 'debt' | 'cap') {
    super(`hold refused: ${reason}`);
  }
}

type DatabaseExecutor = Kysely<DatabaseSchema> | Transaction<DatabaseSchema>;

async function insertLedgerEntry(
  transaction: Transaction<DatabaseSchema>,
  entry: {
    userId: string;
    kind: 'hold' | 'refund' | 'settlement';
    amount: number;
    description: string;
    taskId: string;
    now: number;
  },
): Promise<void> {
  await transaction
    .insertInto('ledger_entries')
    .values({
      id: createRecordId('led', entry.now),
      user_id: entry.userId,
      kind: entry.kind,
      amount: entry.amount,
      debt_change: 0,
      description: entry.description,
      reference: entry.taskId,
      created_at: entry.now,
    })
    .execute();
}

async function findTask(database: DatabaseExecutor, taskId: string): Promise<VideoTaskRecord | undefined> {
  const row = await database.selectFrom('video_tasks').selectAll().where('id', '=', taskId).executeTakeFirst();
  return row === undefined ? undefined : decodeTask(row);
}

async function requireTask(database: DatabaseExecutor, taskId: string): Promise<VideoTaskRecord> {
  const task = await findTask(database, taskId);
  if (task === undefined) throw new Error(`video task ${taskId} vanished`);
  return task;
}

function encodeNewTask(task: NewVideoTask) {
  return {
    id: task.id,
    user_id: task.userId,
    api_key_id: task.apiKeyId,
    group_id: task.groupId,
    surface: task.surface,
    public_model: task.publicModel,
    upstream_model: task.upstreamModel,
    channel_id: null,
    vendor_task_id: null,
    prompt: task.prompt,
    requested_seconds: task.requestedSeconds,
    seconds: task.seconds,
    width: task.width,
    height: task.height,
    state: 'queued',
    error_code: null,
    error_message: null,
    created_at: task.createdAt,
    started_at: null,
    completed_at: null,
    expires_at: task.expiresAt,
    deleted_at: null,
    held_amount: task.heldAmount,
    open_hold: task.heldAmount,
    price_per_second: task.pricePerSecond,
    price_ratio_millionths: task.priceRatioMillionths,
    generated_seconds: null,
    content_reference: null,
    next_poll_at: task.nextPollAt,
    lease_owner: null,
    lease_until: null,
    content_location: null,
    content_removed_at: null,
    request_id: task.requestId,
  };
}

function nullableNumber(value: number | null): number | null {
  return value === null ? null : Number(value);
}

function decodeTask(row: Selectable<VideoTasksTable>): VideoTaskRecord {
  return {
    id: row.id,
    userId: row.user_id,
    apiKeyId: row.api_key_id,
    groupId: row.group_id,
    surface: row.surface as VideoTaskRowSurface,
    publicModel: row.public_model,
    upstreamModel: row.upstream_model,
    channelId: row.channel_id,
    vendorTaskId: row.vendor_task_id,
    prompt: row.prompt,
    requestedSeconds: Number(row.requested_seconds),
    seconds: Number(row.seconds),
    width: Number(row.width),
    height: Number(row.height),
    state: row.state as VideoTaskRowState,
    progress: Number(row.progress),
    version: Number(row.version),
    errorCode: row.error_code,
    errorMessage: row.error_message,
    createdAt: Number(row.created_at),
    startedAt: nullableNumber(row.started_at),
    completedAt: nullableNumber(row.completed_at),
    expiresAt: Number(row.expires_at),
    deletedAt: nullableNumber(row.deleted_at),
    heldAmount: Number(row.held_amount),
    openHold: Number(row.open_hold),
    settledAmount: Number(row.settled_amount),
    pricePerSecond: Number(row.price_per_second),
    priceRatioMillionths: Number(row.price_ratio_millionths),
    generatedSeconds: nullableNumber(row.generated_seconds),
    contentReference: row.content_reference,
    nextPollAt: Number(row.next_poll_at),
    pollAttempts: Number(row.poll_attempts),
    leaseOwner: row.lease_owner,
    leaseUntil: nullableNumber(row.lease_until),
    contentLocation: row.content_location,
    contentRemovedAt: nullableNumber(row.content_removed_at),
    requestId: row.request_id,
  };
}
