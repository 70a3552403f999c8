import type { Insertable, InsertQueryBuilder, InsertResult, Transaction } from 'kysely';
import type { SettledBalance, SettledCharge, SettlementBatch, UsageLogRecord } from './billing-records.js';
import type { DatabaseSchema, LedgerEntriesTable } from './database-schema.js';
import { encodeUsageLog } from './encode-usage-log.js';
import { mapUsageLogToRollups } from './map-usage-log-to-rollups.js';
import { mapUsageLogToHourlyRollups } from './map-usage-log-to-hourly-rollups.js';
import { repayUserDebt, type UserMoneyRow } from './repay-user-debt.js';

// Keeps each INSERT well under SQLite's limit on bound variables.
const rowsPerInsert = 400;

/** How a batch's rows reach the database. */
export interface SettlementWriteOptions {
  /**
   * Given on SQLite (by the worker thread that owns the connection): runs an INSERT for one row's values on the
   * connection directly, with no await, and says whether the row was inserted. Each row then runs one INSERT compiled
   * once per batch instead of a statement built, compiled and prepared per chunk of rows (about 10 % less CPU per
   * row), and skips Kysely's executor and an await per row. PostgreSQL leaves it out and keeps the chunks: there each
   * statement is a round trip.
   */
  runRowInsert?: (sql: string, values: readonly unknown[]) => boolean;
}

/**
 * Writes one settlement batch inside `transaction`: ledger rows, balances and debts, key spend, usage logs, hourly and
 * daily rollups. Its own file so the SQLite worker thread can run it where the connection lives (no import of the store).
 */
export async function writeSettlementBatch(
  transaction: Transaction<DatabaseSchema>,
  batch: SettlementBatch,
  now: number,
  options: SettlementWriteOptions = {},
): Promise<SettledBalance[]> {
  const { runRowInsert } = options;
  const insertNewRows: NewRowInserter = runRowInsert ? (rows, insert) => insertNewRowsOneByOne(runRowInsert, rows, insert) : insertNewRowsInChunks;
  const charges = batch.charges.filter((charge) => charge.amount > 0 || charge.debt > 0);
  const ledgerRows = charges.map(
    (charge): Insertable<LedgerEntriesTable> => ({
      id: charge.id,
      user_id: charge.userId,
      kind: 'settlement',
      amount: -charge.amount,
      debt_change: charge.debt,
      description: charge.debt > 0 ? 'request settlement (part not covered by the balance added to the debt)' : 'request settlement',
      reference: charge.requestId,
      created_at: charge.createdAt,
    }),
  );
  // A row already stored (an earlier attempt committed but reported an error) is skipped with all it would change.
  const insertedLedgerIds = await insertNewRows(ledgerRows, (rows) =>
    transaction.insertInto('ledger_entries').values(rows).onConflict((conflict) => conflict.column('id').doNothing()),
  );
  const newCharges = charges.filter((charge) => insertedLedgerIds.has(charge.id));
  const settled: SettledBalance[] = [];
  const newByUser = groupBy(newCharges, (charge) => charge.userId);
  // Rows are locked in id order, so two nodes writing batches for the same users cannot deadlock on PostgreSQL.
  for (const [userId, userCharges] of sortedGroups(charges, (charge) => charge.userId)) {
    const written = newByUser.get(userId) ?? [];
    const money = await applyUserCharges(transaction, userId, sum(written, (charge) => charge.amount), sum(written, (charge) => charge.debt));
    if (!money) continue;
    // A balance left while a debt stands (a credit arrived before this debt was written) pays the debt at once.
    const repaid = written.length > 0 && money.debt > 0 ? await repayUserDebt(transaction, { userId, money, reference: null, now }) : { money, repayment: undefined };
    settled.push({
      userId,
      ...repaid.money,
      charged: sum(userCharges, (charge) => charge.amount),
      debtAdded: sum(userCharges, (charge) => charge.debt),
      repaid: repaid.repayment ? -repaid.repayment.amount : 0,
    });
  }
  await updateKeys(transaction, newCharges, batch.usageLogs);
  const insertedLogIds = await insertNewRows(batch.usageLogs.map(encodeUsageLog), (rows) =>
    transaction.insertInto('usage_logs').values(rows).onConflict((conflict) => conflict.column('id').doNothing()),
  );
  const newLogs = batch.usageLogs.filter((log) => insertedLogIds.has(log.id));
  await addHourlyRollups(transaction, newLogs);
  for (const rollup of mapUsageLogToRollups(newLogs)) {
    await transaction
      .insertInto('usage_daily_rollups')
      .values(rollup)
      .onConflict((conflict) =>
        conflict.columns(['day', 'user_id', 'api_key_id', 'model']).doUpdateSet((expression) => ({
          request_count: expression('usage_daily_rollups.request_count', '+', expression.ref('excluded.request_count')),
          error_count: expression('usage_daily_rollups.error_count', '+', expression.ref('excluded.error_count')),
          prompt_tokens: expression('usage_daily_rollups.prompt_tokens', '+', expression.ref('excluded.prompt_tokens')),
          completion_tokens: expression('usage_daily_rollups.completion_tokens', '+', expression.ref('excluded.completion_tokens')),
          cached_tokens: expression('usage_daily_rollups.cached_tokens', '+', expression.ref('excluded.cached_tokens')),
          cost: expression('usage_daily_rollups.cost', '+', expression.ref('excluded.cost')),
        })),
      )
      .execute();
  }
  return settled;
}

/** Adds the hourly sums of newly written usage logs onto `usage_hourly_rollups` (same transaction as the daily ones). */
async function addHourlyRollups(transaction: Transaction<DatabaseSchema>, logs: readonly UsageLogRecord[]): Promise<void> {
  for (const rollup of mapUsageLogToHourlyRollups(logs)) {
    await transaction
      .insertInto('usage_hourly_rollups')
      .values(rollup)
      .onConflict((conflict) =>
        conflict.columns(['hour', 'user_id', 'api_key_id', 'model']).doUpdateSet((expression) => ({
          request_count: expression('usage_hourly_rollups.request_count', '+', expression.ref('excluded.request_count')),
          error_count: expression('usage_hourly_rollups.error_count', '+', expression.ref('excluded.error_count')),
          prompt_tokens: expression('usage_hourly_rollups.prompt_tokens', '+', expression.ref('excluded.prompt_tokens')),
          completion_tokens: expression('usage_hourly_rollups.completion_tokens', '+', expression.ref('excluded.completion_tokens')),
          cached_tokens: expression('usage_hourly_rollups.cached_tokens', '+', expression.ref('excluded.cached_tokens')),
          cost: expression('usage_hourly_rollups.cost', '+', expression.ref('excluded.cost')),
        })),
      )
      .execute();
  }
}

/**
 * Adds each key's spend (the whole cost of its new charges, the part left as debt included) and moves its
 * `last_used_at` forward to its newest request in the batch (never back: batches may land out of order, and a replayed
 * batch changes nothing). One pass in key id order, after the users and before any usage row, so two nodes writing
 * batches at once lock users, then keys, then rollups in the same order and cannot deadlock on PostgreSQL.
 */
async function updateKeys(transaction: Transaction<DatabaseSchema>, newCharges: readonly SettledCharge[], logs: readonly UsageLogRecord[]): Promise<void> {
  const spentByKey = new Map<string, number>();
  for (const charge of newCharges) spentByKey.set(charge.apiKeyId, (spentByKey.get(charge.apiKeyId) ?? 0) + charge.amount + charge.debt);
  const newestUseByKey = new Map<string, number>();
  for (const log of logs) newestUseByKey.set(log.apiKeyId, Math.max(newestUseByKey.get(log.apiKeyId) ?? 0, log.createdAt));
  const keyIds = [...new Set([...spentByKey.keys(), ...newestUseByKey.keys()])].sort();
  for (const apiKeyId of keyIds) {
    const spent = spentByKey.get(apiKeyId);
    if (spent !== undefined) await transaction.updateTable('api_keys').set((expression) => ({ spent: expression('spent', '+', spent) })).where('id', '=', apiKeyId).execute();
    const usedAt = newestUseByKey.get(apiKeyId);
    if (usedAt === undefined) continue;
    await transaction
      .updateTable('api_keys')
      .set({ last_used_at: usedAt })
      .where('id', '=', apiKeyId)
      .where((expression) => expression.or([expression('last_used_at', 'is', null), expression('last_used_at', '<', usedAt)]))
      .execute();
  }
}

/** The tables a batch inserts rows into, each keyed by `id`. */
type BatchTable = 'ledger_entries' | 'usage_logs';

/** An INSERT of `rows` that skips rows whose id is stored already (ON CONFLICT (id) DO NOTHING, on both engines). */
type InsertSkippingStoredIds<Table extends BatchTable, Row> = (rows: Row[]) => InsertQueryBuilder<DatabaseSchema, Table, InsertResult>;

/** Inserts rows that may be stored already; returns the ids actually inserted (at once on SQLite's worker). */
type NewRowInserter = <Table extends BatchTable, Row extends { id: string }>(rows: Row[], insert: InsertSkippingStoredIds<Table, Row>) => Set<string> | Promise<Set<string>>;

/** Inserts rows in chunks of `rowsPerInsert`, one statement each; returns the ids actually inserted. */
async function insertNewRowsInChunks<Table extends BatchTable, Row extends { id: string }>(rows: Row[], insert: InsertSkippingStoredIds<Table, Row>): Promise<Set<string>> {
  const inserted = new Set<string>();
  for (let start = 0; start < rows.length; start += rowsPerInsert) {
    for (const row of await insert(rows.slice(start, start + rowsPerInsert)).returning('id').execute()) inserted.add(String(row.id));
  }
  return inserted;
}

/**
 * Inserts rows one at a time through `runRowInsert`, with the INSERT of the first row compiled once: Kysely puts every
 * value of a row in a parameter, in the order of the row's keys, so the other rows only need their values in that
 * order (every row of a table has the same keys). Returns the ids actually inserted.
 */
function insertNewRowsOneByOne<Table extends BatchTable, Row extends { id: string }>(
  runRowInsert: NonNullable<SettlementWriteOptions['runRowInsert']>,
  rows: Row[],
  insert: InsertSkippingStoredIds<Table, Row>,
): Set<string> {
  const inserted = new Set<string>();
  if (rows.length === 0) return inserted;
  const { sql } = insert([rows[0]!]).compile();
  const columns = Object.keys(rows[0]!) as Array<keyof Row>;
  for (const row of rows) {
    if (runRowInsert(sql, columns.map((column) => row[column] ?? null))) inserted.add(row.id);
  }
  return inserted;
}

/** Takes `amount` from a user's balance and adds `debt` to their debt (nothing when both are 0); undefined for an unknown user. */
async function applyUserCharges(transaction: Transaction<DatabaseSchema>, userId: string, amount: number, debt: number): Promise<UserMoneyRow | undefined> {
  const row =
    amount === 0 && debt === 0
      ? await transaction.selectFrom('users').select(['balance', 'debt', 'balance_sequence']).where('id', '=', userId).executeTakeFirst()
      : await transaction
          .updateTable('users')
          .set((expression) => ({ balance: expression('balance', '-', amount), debt: expression('debt', '+', debt), balance_sequence: expression('balance_sequence', '+', 1) }))
          .where('id', '=', userId)
          .returning(['balance', 'debt', 'balance_sequence'])
          .executeTakeFirst();
  return row === undefined ? undefined : { balance: Number(row.balance), debt: Number(row.debt), sequence: Number(row.balance_sequence) };
}

/** Groups by key, in key order. */
function sortedGroups<Item>(items: readonly Item[], keyOf: (item: Item) => string): Array<[string, Item[]]> {
  return [...groupBy(items, keyOf)].sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
}

function groupBy<Item>(items: readonly Item[], keyOf: (item: Item) => string): Map<string, Item[]> {
  const groups = new Map<string, Item[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

function sum<Item>(items: readonly Item[], valueOf: (item: Item) => number): number {
  let total = 0;
  for (const item of items) total += valueOf(item);
  return total;
}
