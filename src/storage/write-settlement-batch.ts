import {
  sql,
  type Insertable,
  type InsertQueryBuilder,
  type InsertResult,
  type RawBuilder,
  type Transaction,
} from 'kysely';
import type {
  RefusedRequestCount,
  SettledBalance,
  SettledCharge,
  SettlementBatch,
  UsageLogRecord,
} from './billing-records.js';
import type { DatabaseSchema, LedgerEntriesTable } from './database-schema.js';
import type { BuiltStatement, CompiledStatements } from './compiled-statements.js';
import { encodeUsageLog, usageLogColumns, usageLogValues } from './encode-usage-log.js';
import { sumUsageLogs, type UsageSums } from './sum-usage-logs.js';
import { moveShortfallToDebt } from './move-shortfall-to-debt.js';
import { repayUserDebt, type UserMoneyRow } from './repay-user-debt.js';

// Keeps each INSERT well under SQLite's limit on bound variables.
const rowsPerInsert = 400;

/** How a batch's statements reach the database. */
export interface SettlementWriteOptions {
  /**
   * Given on SQLite (by the worker thread that owns the connection): runs each statement compiled once per thread, on
   * the connection directly, with no await. A batch runs about seven statements besides its rows, and building and
   * compiling each with Kysely cost the writer about a tenth of its time; its rows run one INSERT each, so they skip
   * Kysely's executor and an await per row too. PostgreSQL leaves it out and inserts rows in chunks: there each
   * statement is a round trip.
   */
  statements?: CompiledStatements;
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
  const { statements } = options;
  // Every statement below is built the same whatever its arguments, as CompiledStatements requires.
  const execute: StatementExecutor = statements
    ? (name, build, args) => statements.all(name, build, args)
    : (_name, build, args) => build(...args).execute();
  const insertNewRows: NewRowInserter = statements
    ? (table, items, encoding, insert) => insertNewRowsOneByOne(statements, table, items, encoding, insert)
    : (_table, items, encoding, insert) => insertNewRowsInChunks(items.map(encoding.toRow), insert);
  const charges = batch.charges.filter((charge) => charge.amount > 0 || charge.debt > 0);
  // A row already stored (an earlier attempt committed but reported an error) is skipped with all it would change.
  const insertedLedgerIds = await insertNewRows('ledger_entries', charges, settlementLedgerEncoding, (rows) =>
    transaction
      .insertInto('ledger_entries')
      .values(rows)
      .onConflict((conflict) => conflict.column('id').doNothing()),
  );
  const newCharges = charges.filter((charge) => insertedLedgerIds.has(charge.id));
  const settled: SettledBalance[] = [];
  const newByUser = groupBy(newCharges, (charge) => charge.userId);
  // Rows are locked in id order, so two nodes writing batches for the same users cannot deadlock on PostgreSQL.
  for (const [userId, userCharges] of sortedGroups(charges, (charge) => charge.userId)) {
    const written = newByUser.get(userId) ?? [];
    const money = await applyUserCharges(
      transaction,
      execute,
      userId,
      sum(written, (charge) => charge.amount),
      sum(written, (charge) => charge.debt),
    );
    if (!money) continue;
    // The floor: the stored balance may already be spent by charges this node did not know of (other nodes' unwritten
    // charges, a debt repayment), so what it cannot cover becomes debt here, never a negative balance.
    const floored =
      money.balance < 0
        ? await moveShortfallToDebt(transaction, {
            userId,
            money,
            reference: written.at(-1)?.requestId ?? null,
            now,
          })
        : { money, shortfall: undefined };
    // A balance left while a debt stands (a credit arrived before this debt was written) pays the debt at once.
    const repaid =
      written.length > 0 && floored.money.debt > 0
        ? await repayUserDebt(transaction, { userId, money: floored.money, reference: null, now })
        : { money: floored.money, repayment: undefined };
    settled.push({
      userId,
      ...repaid.money,
      charged: sum(userCharges, (charge) => charge.amount),
      debtAdded: sum(userCharges, (charge) => charge.debt),
      // Both moves change balance and debt by the same amount: lowered by a repayment, raised by a shortfall.
      repaid: (repaid.repayment ? -repaid.repayment.amount : 0) - (floored.shortfall ? floored.shortfall.amount : 0),
    });
  }
  await updateKeys(transaction, execute, newCharges, batch.usageLogs);
  const insertedLogIds = await insertNewRows('usage_logs', batch.usageLogs, usageLogEncoding, (rows) =>
    transaction
      .insertInto('usage_logs')
      .values(rows)
      .onConflict((conflict) => conflict.column('id').doNothing()),
  );
  const newLogs = batch.usageLogs.filter((log) => insertedLogIds.has(log.id));
  const refusals = sortedRefusals(batch.refusedCounts ?? []);
  for (const refusal of refusals)
    await execute('refused_request_counts.add', addRefusedCount, [
      refusal.minute,
      refusal.userId,
      refusal.apiKeyId,
      refusal.model,
      refusal.status,
      refusal.errorCode,
      refusal.count,
    ]);
  for (const rollup of sumUsageLogs(newLogs, hourOf, refusals))
    await execute('usage_hourly_rollups.add', addToHourlyRollup, rollupArguments(rollup));
  for (const rollup of sumUsageLogs(newLogs, dayOf, refusals))
    await execute('usage_daily_rollups.add', addToDailyRollup, rollupArguments(rollup));
  return settled;

  function addRefusedCount(
    minute: number,
    userId: string,
    apiKeyId: string,
    model: string,
    status: number,
    errorCode: string,
    count: number,
  ) {
    return transaction
      .insertInto('refused_request_counts')
      .values({
        minute,
        user_id: userId,
        api_key_id: apiKeyId,
        model,
        status,
        error_code: errorCode,
        count,
      })
      .onConflict((conflict) =>
        conflict.columns(['minute', 'user_id', 'api_key_id', 'model', 'status', 'error_code']).doUpdateSet({
          count: sql<number>`${sql.ref('refused_request_counts.count')} + ${sql.ref('excluded.count')}`,
        }),
      );
  }

  function addToHourlyRollup(
    ...[
      hour,
      userId,
      apiKeyId,
      model,
      requestCount,
      errorCount,
      promptTokens,
      completionTokens,
      cachedTokens,
      cost,
    ]: RollupArguments<number>
  ) {
    return transaction
      .insertInto('usage_hourly_rollups')
      .values({
        hour,
        user_id: userId,
        api_key_id: apiKeyId,
        model,
        request_count: requestCount,
        error_count: errorCount,
        prompt_tokens: promptTokens,
        completion_tokens: completionTokens,
        cached_tokens: cachedTokens,
        cost,
      })
      .onConflict((conflict) =>
        conflict
          .columns(['hour', 'user_id', 'api_key_id', 'model'])
          .doUpdateSet(addExcludedSums('usage_hourly_rollups')),
      );
  }

  function addToDailyRollup(
    ...[
      day,
      userId,
      apiKeyId,
      model,
      requestCount,
      errorCount,
      promptTokens,
      completionTokens,
      cachedTokens,
      cost,
    ]: RollupArguments<string>
  ) {
    return transaction
      .insertInto('usage_daily_rollups')
      .values({
        day,
        user_id: userId,
        api_key_id: apiKeyId,
        model,
        request_count: requestCount,
        error_count: errorCount,
        prompt_tokens: promptTokens,
        completion_tokens: completionTokens,
        cached_tokens: cachedTokens,
        cost,
      })
      .onConflict((conflict) =>
        conflict.columns(['day', 'user_id', 'api_key_id', 'model']).doUpdateSet(addExcludedSums('usage_daily_rollups')),
      );
  }
}

/** Runs a statement `build` makes from `args` and returns its rows: compiled once on SQLite's worker, executed by Kysely elsewhere. */
type StatementExecutor = <Args extends readonly unknown[], Row>(
  name: string,
  build: (...args: Args) => BuiltStatement<Row>,
  args: Args,
) => Row[] | Promise<Row[]>;

/** The rollup tables: sums per time bucket (`hour` or `day`), user, key and model. */
type RollupTable = 'usage_hourly_rollups' | 'usage_daily_rollups';

/** The columns a rollup adds up. */
const summedRollupColumns = [
  'request_count',
  'error_count',
  'prompt_tokens',
  'completion_tokens',
  'cached_tokens',
  'cost',
] as const;

/** The upsert's SET: each summed column plus the same column of the row that conflicted (SQLite and PostgreSQL alike). */
function addExcludedSums(table: RollupTable): Record<(typeof summedRollupColumns)[number], RawBuilder<number>> {
  const added = (column: (typeof summedRollupColumns)[number]) =>
    sql<number>`${sql.ref(`${table}.${column}`)} + ${sql.ref(`excluded.${column}`)}`;
  return {
    request_count: added('request_count'),
    error_count: added('error_count'),
    prompt_tokens: added('prompt_tokens'),
    completion_tokens: added('completion_tokens'),
    cached_tokens: added('cached_tokens'),
    cost: added('cost'),
  };
}

/** A rollup row's values in column order: its time bucket, user, key, model, then the sums. */
type RollupArguments<Bucket> = [
  bucket: Bucket,
  userId: string,
  apiKeyId: string,
  model: string,
  requestCount: number,
  errorCount: number,
  promptTokens: number,
  completionTokens: number,
  cachedTokens: number,
  cost: number,
];

function rollupArguments<Bucket extends string | number>(
  sums: UsageSums & { bucket: Bucket },
): RollupArguments<Bucket> {
  return [
    sums.bucket,
    sums.user_id,
    sums.api_key_id,
    sums.model,
    sums.request_count,
    sums.error_count,
    sums.prompt_tokens,
    sums.completion_tokens,
    sums.cached_tokens,
    sums.cost,
  ];
}

const millisecondsPerHour = 3_600_000;
const millisecondsPerDay = 86_400_000;

/** Unix milliseconds of the start of the UTC hour of `createdAt`: the key of `usage_hourly_rollups`. */
function hourOf(createdAt: number): number {
  return Math.floor(createdAt / millisecondsPerHour) * millisecondsPerHour;
}

/** The last day named, kept because a batch's rows almost always share one day. */
let lastDay = { number: Number.NaN, name: '' };

/** The UTC day of `createdAt` as `YYYY-MM-DD`: the key of `usage_daily_rollups`. */
function dayOf(createdAt: number): string {
  const number = Math.floor(createdAt / millisecondsPerDay);
  if (number !== lastDay.number)
    lastDay = { number, name: new Date(number * millisecondsPerDay).toISOString().slice(0, 10) };
  return lastDay.name;
}

/**
 * Adds each key's spend (the whole cost of its new charges, the part left as debt included) and moves its
 * `last_used_at` forward to its newest request in the batch (never back: batches may land out of order, and a replayed
 * batch changes nothing). One pass in key id order, after the users and before any usage row, so two nodes writing
 * batches at once lock users, then keys, then rollups in the same order and cannot deadlock on PostgreSQL.
 */
async function updateKeys(
  transaction: Transaction<DatabaseSchema>,
  execute: StatementExecutor,
  newCharges: readonly SettledCharge[],
  logs: readonly UsageLogRecord[],
): Promise<void> {
  const spentByKey = new Map<string, number>();
  for (const charge of newCharges)
    spentByKey.set(charge.apiKeyId, (spentByKey.get(charge.apiKeyId) ?? 0) + charge.amount + charge.debt);
  const newestUseByKey = new Map<string, number>();
  for (const log of logs)
    newestUseByKey.set(log.apiKeyId, Math.max(newestUseByKey.get(log.apiKeyId) ?? 0, log.createdAt));
  const keyIds = [...new Set([...spentByKey.keys(), ...newestUseByKey.keys()])].sort();
  for (const apiKeyId of keyIds) {
    const spent = spentByKey.get(apiKeyId);
    if (spent !== undefined) {
      await execute(
        'api_keys.add-spent',
        (id: string, amount: number) =>
          transaction
            .updateTable('api_keys')
            .set((expression) => ({ spent: expression('spent', '+', amount) }))
            .where('id', '=', id),
        [apiKeyId, spent],
      );
    }
    const usedAt = newestUseByKey.get(apiKeyId);
    if (usedAt === undefined) continue;
    await execute(
      'api_keys.move-last-used',
      (id: string, at: number) =>
        transaction
          .updateTable('api_keys')
          .set({ last_used_at: at })
          .where('id', '=', id)
          .where((expression) =>
            expression.or([expression('last_used_at', 'is', null), expression('last_used_at', '<', at)]),
          ),
      [apiKeyId, usedAt],
    );
  }
}

/** The tables a batch inserts rows into, each keyed by `id`. */
type BatchTable = 'ledger_entries' | 'usage_logs';

/** An INSERT of `rows` that skips rows whose id is stored already (ON CONFLICT (id) DO NOTHING, on both engines). */
type InsertSkippingStoredIds<Table extends BatchTable, Row> = (
  rows: Row[],
) => InsertQueryBuilder<DatabaseSchema, Table, InsertResult>;

/**
 * How a batch's items become rows of a table: row objects for Kysely's chunked INSERTs (PostgreSQL), or the same
 * values in column order for SQLite's worker, which binds them to one compiled INSERT per row with no row object built
 * and copied into an array for each of them. `toValues(item)` must equal `columns.map((column) => toRow(item)[column])`
 * (a test pins both encodings).
 */
export interface BatchRowEncoding<Item, Row extends { id: string }> {
  columns: ReadonlyArray<keyof Row & string>;
  toRow(item: Item): Row;
  toValues(item: Item): unknown[];
  idOf(item: Item): string;
}

/** The ledger row of a settled charge. */
function settlementLedgerRow(charge: SettledCharge): Insertable<LedgerEntriesTable> & { id: string } {
  return {
    id: charge.id,
    user_id: charge.userId,
    kind: 'settlement',
    amount: -charge.amount,
    debt_change: charge.debt,
    description: settlementDescription(charge),
    reference: charge.requestId,
    created_at: charge.createdAt,
  };
}

function settlementDescription(charge: SettledCharge): string {
  return charge.debt > 0
    ? 'request settlement (part not covered by the balance added to the debt)'
    : 'request settlement';
}

/** Settled charges as `settlement` ledger rows. */
export const settlementLedgerEncoding: BatchRowEncoding<
  SettledCharge,
  Insertable<LedgerEntriesTable> & { id: string }
> = {
  columns: ['id', 'user_id', 'kind', 'amount', 'debt_change', 'description', 'reference', 'created_at'],
  toRow: settlementLedgerRow,
  toValues: (charge) => [
    charge.id,
    charge.userId,
    'settlement',
    -charge.amount,
    charge.debt,
    settlementDescription(charge),
    charge.requestId,
    charge.createdAt,
  ],
  idOf: (charge) => charge.id,
};

/** Usage log records as `usage_logs` rows. */
export const usageLogEncoding: BatchRowEncoding<UsageLogRecord, ReturnType<typeof encodeUsageLog>> = {
  columns: usageLogColumns,
  toRow: encodeUsageLog,
  toValues: usageLogValues,
  idOf: (log) => log.id,
};

/** Inserts rows that may be stored already; returns the ids actually inserted (at once on SQLite's worker). */
type NewRowInserter = <Table extends BatchTable, Item, Row extends { id: string }>(
  table: Table,
  items: readonly Item[],
  encoding: BatchRowEncoding<Item, Row>,
  insert: InsertSkippingStoredIds<Table, Row>,
) => Set<string> | Promise<Set<string>>;

/** Inserts rows in chunks of `rowsPerInsert`, one statement each; returns the ids actually inserted. */
async function insertNewRowsInChunks<Table extends BatchTable, Row extends { id: string }>(
  rows: Row[],
  insert: InsertSkippingStoredIds<Table, Row>,
): Promise<Set<string>> {
  const inserted = new Set<string>();
  for (let start = 0; start < rows.length; start += rowsPerInsert) {
    for (const row of await insert(rows.slice(start, start + rowsPerInsert))
      .returning('id')
      .execute())
      inserted.add(String(row.id));
  }
  return inserted;
}

/**
 * Inserts rows one at a time, with one INSERT compiled once per table and column list; each item's values in the
 * encoding's column order are the statement's arguments. Returns the ids actually inserted.
 */
function insertNewRowsOneByOne<Table extends BatchTable, Item, Row extends { id: string }>(
  statements: CompiledStatements,
  table: Table,
  items: readonly Item[],
  encoding: BatchRowEncoding<Item, Row>,
  insert: InsertSkippingStoredIds<Table, Row>,
): Set<string> {
  const inserted = new Set<string>();
  if (items.length === 0) return inserted;
  const { columns } = encoding;
  const name = `${table}.insert(${columns.join(',')})`;
  const build = (...values: unknown[]) =>
    insert([Object.fromEntries(columns.map((column, index) => [column, values[index]])) as Row]);
  for (const item of items) {
    if (statements.run(name, build, encoding.toValues(item)) > 0) inserted.add(encoding.idOf(item));
  }
  return inserted;
}

/** Takes `amount` from a user's balance and adds `debt` to their debt (nothing when both are 0); undefined for an unknown user. */
async function applyUserCharges(
  transaction: Transaction<DatabaseSchema>,
  execute: StatementExecutor,
  userId: string,
  amount: number,
  debt: number,
): Promise<UserMoneyRow | undefined> {
  const [row] =
    amount === 0 && debt === 0
      ? await execute(
          'users.read-money',
          (id: string) =>
            transaction.selectFrom('users').select(['balance', 'debt', 'balance_sequence']).where('id', '=', id),
          [userId],
        )
      : await execute(
          'users.charge',
          (id: string, charged: number, owed: number) =>
            transaction
              .updateTable('users')
              .set((expression) => ({
                balance: expression('balance', '-', charged),
                debt: expression('debt', '+', owed),
                balance_sequence: expression('balance_sequence', '+', 1),
              }))
              .where('id', '=', id)
              .returning(['balance', 'debt', 'balance_sequence']),
          [userId, amount, debt],
        );
  return row === undefined
    ? undefined
    : { balance: Number(row.balance), debt: Number(row.debt), sequence: Number(row.balance_sequence) };
}

/** Refused counts in key order (minute, user, key, model, status, code), so concurrent batches lock their rows alike. */
function sortedRefusals(refusals: readonly RefusedRequestCount[]): RefusedRequestCount[] {
  const keyOf = (refusal: RefusedRequestCount) =>
    [refusal.minute, refusal.userId, refusal.apiKeyId, refusal.model, refusal.status, refusal.errorCode].join('\u0000');
  return refusals
    .filter((refusal) => refusal.count > 0)
    .map((refusal) => ({ refusal, key: keyOf(refusal) }))
    .sort((left, right) => (left.key < right.key ? -1 : left.key > right.key ? 1 : 0))
    .map(({ refusal }) => refusal);
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
