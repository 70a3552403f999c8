import { findOrderLedgerMismatches } from './find-order-ledger-mismatches.js';
import { sql, type Insertable, type Kysely, type Selectable, type Transaction } from 'kysely';
import { createRecordId } from '../core/create-record-id.js';
import { writeWithRevision } from './write-with-revision.js';
import { writeKeyChangeWithRevision } from './write-key-change-with-revision.js';
import { loadApiKeyBillingChanges } from './load-api-key-billing-changes.js';
import type { ModelPriceRecord as ModelPrice } from './price-records.js';
import type { RequestPricingRecord as RequestPricing } from './price-records.js';
import type {
  LedgerEntryRecord,
  LedgerKind,
  RequestLimits,
  SettledBalance,
  StoredBalance,
  UsageLogRecord,
  UsageSummaryRecord,
  HourlyUsageRecord,
  RefusedRequestCount,
} from './billing-records.js';
import type { BillingStore } from './billing-store.js';
import { createDatabase, type CreatedDatabase } from './create-database.js';
import type {
  DatabaseSchema,
  LedgerEntriesTable,
  ModelPricesTable,
  UsageLogPricingColumns,
  UsageLogRequestIdColumns,
  UsageLogsTable,
} from './database-schema.js';
import { runMigrations } from './run-migrations.js';
import { withoutStatementTimeout } from './without-statement-timeout.js';
import { deleteOldestRows } from './delete-oldest-rows.js';
import { usageRetentionBatches } from './usage-retention-batches.js';
import { BalanceChangeRefusedError } from './balance-change-refused-error.js';
import { repayUserDebt } from './repay-user-debt.js';
import { writeSettlementBatch } from './write-settlement-batch.js';

/** Lifetime of an admin token made without an explicit expiry: 90 days, in milliseconds. */
const defaultAdminTokenLifetimeMs = 90 * 24 * 3_600_000;

/** How to open the billing store; pass an open database to share its connection with the gateway store. */
export interface BillingStoreOptions {
  /** `sqlite:<path>` or a `postgres://` connection string; ignored when `database` is given */
  databaseUrl?: string;
  /** an already open database and its engine */
  database?: CreatedDatabase;
  /** current time in Unix milliseconds */
  clock?: () => number;
}

type DatabaseExecutor = Kysely<DatabaseSchema> | Transaction<DatabaseSchema>;

/** Opens the billing store on SQLite or PostgreSQL; call `migrate()` before use (it runs every gateway migration). */
export function createBillingStore(options: BillingStoreOptions): BillingStore {
  const opened = options.database ?? createDatabase(requireUrl(options.databaseUrl));
  const { database, dialect } = opened;
  const ownsDatabase = options.database === undefined;
  const clock = options.clock ?? Date.now;
  const workerBatchWriter = opened.writeSettlementBatch;

  const writeWithBillingRevision = <Result>(work: (transaction: Transaction<DatabaseSchema>) => Promise<Result>) =>
    writeWithRevision(database, 'billing_revision', work);

  return {
    dialect,
    migrate: () => runMigrations(database),
    close: async () => {
      if (ownsDatabase) await database.destroy();
    },

    changeBalance(change) {
      if (!Number.isSafeInteger(change.amount) || change.amount === 0)
        throw new Error('A balance change must be a non-zero integer of micro-units');
      return writeWithBillingRevision(async (transaction) => {
        const updated = await transaction
          .updateTable('users')
          .set((expression) => ({
            balance: expression('balance', '+', change.amount),
            balance_sequence: expression('balance_sequence', '+', 1),
          }))
          .where('id', '=', change.userId)
          .returning(['balance', 'debt', 'balance_sequence'])
          .executeTakeFirst();
        if (updated === undefined) throw new Error(`No user ${change.userId} exists`);
        const balance = Number(updated.balance);
        // Thrown inside the transaction, so nothing of the change is written.
        if (balance < 0) throw new BalanceChangeRefusedError(balance - change.amount, -change.amount);
        const entry: LedgerEntryRecord = {
          id: createRecordId('led'),
          userId: change.userId,
          kind: change.kind,
          amount: change.amount,
          debtChange: 0,
          description: change.description,
          reference: change.reference ?? null,
          createdAt: clock(),
        };
        await transaction.insertInto('ledger_entries').values(encodeLedgerEntry(entry)).execute();
        // Every credit pays the debt first; a debit never touches it.
        const money = { balance, debt: Number(updated.debt), sequence: Number(updated.balance_sequence) };
        const repaid =
          change.amount > 0
            ? await repayUserDebt(transaction, {
                userId: change.userId,
                money,
                reference: entry.id,
                now: entry.createdAt,
              })
            : { money, repayment: undefined };
        return { entry, repayment: repaid.repayment, ...repaid.money };
      });
    },

    // SQLite behind a worker thread writes the whole batch there in one message; elsewhere it is built and run here.
    writeSettlementBatch: workerBatchWriter
      ? (batch) => workerBatchWriter(batch, clock())
      : (batch) => database.transaction().execute((transaction) => writeSettlementBatch(transaction, batch, clock())),

    async findBalanceMismatches() {
      // A full pass over the ledger (`gateway billing verify`): not a request's statement, so no statement timeout.
      const rows = await withoutStatementTimeout(database, (connection) =>
        connection
          .selectFrom('users')
          .select(['id', 'email', 'balance', 'debt'])
          .select(
            sql<number>`(select cast(coalesce(sum(amount), 0) as bigint) from ledger_entries where ledger_entries.user_id = users.id)`.as(
              'ledger_sum',
            ),
          )
          .select(
            sql<number>`(select cast(coalesce(sum(debt_change), 0) as bigint) from ledger_entries where ledger_entries.user_id = users.id)`.as(
              'ledger_debt_sum',
            ),
          )
          .orderBy('id')
          .execute(),
      );
      return rows
        .map((row) => ({
          userId: row.id,
          email: row.email,
          balance: Number(row.balance),
          ledgerSum: Number(row.ledger_sum),
          debt: Number(row.debt),
          ledgerDebtSum: Number(row.ledger_debt_sum),
        }))
        .filter(
          (row) => row.balance !== row.ledgerSum || row.debt !== row.ledgerDebtSum || row.balance < 0 || row.debt < 0,
        );
    },

    findOrderLedgerMismatches: () => findOrderLedgerMismatches(database),

    async readStoredBalance(userId) {
      const row = await database
        .selectFrom('users')
        .select(['balance', 'debt', 'balance_sequence'])
        .where('id', '=', userId)
        .executeTakeFirst();
      return row === undefined
        ? undefined
        : { userId, balance: Number(row.balance), debt: Number(row.debt), sequence: Number(row.balance_sequence) };
    },

    async readStoredBalances(userIds) {
      const balances: StoredBalance[] = [];
      // Chunks keep each statement well under SQLite's limit on bound variables.
      for (let start = 0; start < userIds.length; start += 400) {
        const rows = await database
          .selectFrom('users')
          .select(['id', 'balance', 'debt', 'balance_sequence'])
          .where('id', 'in', userIds.slice(start, start + 400))
          .execute();
        for (const row of rows)
          balances.push({
            userId: row.id,
            balance: Number(row.balance),
            debt: Number(row.debt),
            sequence: Number(row.balance_sequence),
          });
      }
      return balances;
    },

    async readBalance(userId) {
      const row = await database.selectFrom('users').select('balance').where('id', '=', userId).executeTakeFirst();
      return row === undefined ? undefined : Number(row.balance);
    },

    async listLedgerEntries(userId, options) {
      let query = database.selectFrom('ledger_entries').selectAll().where('user_id', '=', userId);
      const before = options.before;
      if (before) {
        query = query.where((expression) =>
          expression.or([
            expression('created_at', '<', before.createdAt),
            expression.and([expression('created_at', '=', before.createdAt), expression('id', '<', before.id)]),
          ]),
        );
      }
      const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(options.limit).execute();
      return rows.map(decodeLedgerEntry);
    },

    readBillingRevision: () => readBillingRevision(database),

    loadBillingSnapshot() {
      return database
        .transaction()
        .setIsolationLevel('repeatable read')
        .execute(async (transaction) => {
          const revision = await readBillingRevision(transaction);
          const users = await transaction
            .selectFrom('users')
            .select([
              'id',
              'balance',
              'debt',
              'balance_sequence',
              'requests_per_minute',
              'tokens_per_minute',
              'max_concurrent_requests',
            ])
            .execute();
          const apiKeys = await transaction
            .selectFrom('api_keys')
            .select([
              'id',
              'spending_cap',
              'spent',
              'allowed_ips',
              'requests_per_minute',
              'tokens_per_minute',
              'max_concurrent_requests',
            ])
            .execute();
          const prices = await transaction.selectFrom('model_prices').selectAll().execute();
          const groups = await transaction
            .selectFrom('model_groups')
            .select(['id', 'price_ratio_millionths'])
            .execute();
          return {
            revision,
            users: users.map((row) => ({
              userId: row.id,
              balance: Number(row.balance),
              debt: Number(row.debt),
              sequence: Number(row.balance_sequence),
              limits: decodeLimits(row),
            })),
            apiKeys: apiKeys.map((row) => ({
              apiKeyId: row.id,
              spendingCap: row.spending_cap === null ? null : Number(row.spending_cap),
              spent: Number(row.spent),
              allowedIps: JSON.parse(row.allowed_ips) as string[],
              limits: decodeLimits(row),
            })),
            prices: prices.map(decodeModelPrice),
            groupPriceRatios: groups.map((row) => ({
              groupId: row.id,
              priceRatioMillionths: Number(row.price_ratio_millionths),
            })),
          };
        });
    },

    async listModelPrices() {
      const rows = await database.selectFrom('model_prices').selectAll().orderBy('model_id').execute();
      return rows.map(decodeModelPrice);
    },

    async setModelPrice(price) {
      const row = encodeModelPrice(price, clock());
      await writeWithBillingRevision((transaction) =>
        transaction
          .insertInto('model_prices')
          .values(row)
          .onConflict((conflict) => conflict.column('model_id').doUpdateSet({ ...row, model_id: undefined }))
          .execute(),
      );
    },

    async deleteModelPrice(modelId) {
      await writeWithBillingRevision((transaction) =>
        transaction.deleteFrom('model_prices').where('model_id', '=', modelId).execute(),
      );
    },

    async setGroupPriceRatio(groupId, priceRatioMillionths) {
      await writeWithBillingRevision(async (transaction) => {
        const result = await transaction
          .updateTable('model_groups')
          .set({ price_ratio_millionths: priceRatioMillionths })
          .where('id', '=', groupId)
          .executeTakeFirst();
        if (!result.numUpdatedRows) throw new Error(`No model group ${groupId} exists`);
      });
    },

    loadApiKeyBillingChanges: (sinceRevision) => loadApiKeyBillingChanges(database, sinceRevision),

    async setApiKeyBilling(apiKeyId, settings) {
      await writeKeyChangeWithRevision(database, 'billing_revision', async (transaction) => {
        const result = await transaction
          .updateTable('api_keys')
          .set({
            spending_cap: settings.spendingCap,
            allowed_ips: JSON.stringify(settings.allowedIps),
            ...encodeLimits(settings.limits),
          })
          .where('id', '=', apiKeyId)
          .executeTakeFirst();
        if (!result.numUpdatedRows) throw new Error(`No API key ${apiKeyId} exists`);
        return { result: undefined, changedApiKeyId: apiKeyId };
      });
    },

    async setUserLimits(userId, limits) {
      await writeWithBillingRevision(async (transaction) => {
        const result = await transaction
          .updateTable('users')
          .set(encodeLimits(limits))
          .where('id', '=', userId)
          .executeTakeFirst();
        if (!result.numUpdatedRows) throw new Error(`No user ${userId} exists`);
      });
    },

    async findUserById(userId) {
      const row = await database.selectFrom('users').select(userColumns).where('id', '=', userId).executeTakeFirst();
      return row === undefined ? undefined : decodeUser(row);
    },

    async listUsageLogs(filter) {
      let query = database.selectFrom('usage_logs').selectAll();
      if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
      if (filter.apiKeyId !== undefined) query = query.where('api_key_id', '=', filter.apiKeyId);
      if (filter.model !== undefined) query = query.where('model', '=', filter.model);
      if (filter.status !== undefined) query = query.where('status', '=', filter.status);
      if (filter.statusClass !== undefined)
        query = query
          .where('status', '>=', filter.statusClass * 100)
          .where('status', '<', (filter.statusClass + 1) * 100);
      if (filter.endpoint !== undefined) query = query.where('endpoint', '=', filter.endpoint);
      if (filter.requestId !== undefined) query = query.where('request_id', '=', filter.requestId);
      if (filter.from !== undefined) query = query.where('created_at', '>=', filter.from);
      if (filter.to !== undefined) query = query.where('created_at', '<', filter.to);
      const before = filter.before;
      if (before) {
        query = query.where((expression) =>
          expression.or([
            expression('created_at', '<', before.createdAt),
            expression.and([expression('created_at', '=', before.createdAt), expression('id', '<', before.id)]),
          ]),
        );
      }
      const rows = await query
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(Math.min(filter.limit, 500))
        .execute();
      return rows.map(decodeUsageLog);
    },

    async listUsageSummaries(filter) {
      let query = database.selectFrom('usage_daily_rollups').selectAll();
      if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
      if (filter.apiKeyId !== undefined) query = query.where('api_key_id', '=', filter.apiKeyId);
      if (filter.model !== undefined) query = query.where('model', '=', filter.model);
      if (filter.fromDay !== undefined) query = query.where('day', '>=', filter.fromDay);
      if (filter.toDay !== undefined) query = query.where('day', '<=', filter.toDay);
      const rows = await query.orderBy('day', 'desc').orderBy('model').orderBy('api_key_id').limit(5000).execute();
      return rows.map((row): UsageSummaryRecord => ({
        day: row.day,
        userId: row.user_id,
        apiKeyId: row.api_key_id,
        model: row.model,
        requestCount: Number(row.request_count),
        errorCount: Number(row.error_count),
        promptTokens: Number(row.prompt_tokens),
        completionTokens: Number(row.completion_tokens),
        cachedTokens: Number(row.cached_tokens),
        cost: Number(row.cost),
      }));
    },

    async listHourlyUsage(filter) {
      let query = database
        .selectFrom('usage_hourly_rollups')
        .selectAll()
        .where('hour', '>=', filter.from)
        .where('hour', '<', filter.to);
      if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
      if (filter.apiKeyId !== undefined) query = query.where('api_key_id', '=', filter.apiKeyId);
      if (filter.model !== undefined) query = query.where('model', '=', filter.model);
      const rows = await query.orderBy('hour').orderBy('model').orderBy('api_key_id').limit(10_000).execute();
      return rows.map((row): HourlyUsageRecord => ({
        hour: Number(row.hour),
        userId: row.user_id,
        apiKeyId: row.api_key_id,
        model: row.model,
        requestCount: Number(row.request_count),
        errorCount: Number(row.error_count),
        promptTokens: Number(row.prompt_tokens),
        completionTokens: Number(row.completion_tokens),
        cachedTokens: Number(row.cached_tokens),
        cost: Number(row.cost),
      }));
    },

    async listRefusedRequestCounts(filter) {
      let query = database
        .selectFrom('refused_request_counts')
        .selectAll()
        .where('minute', '>=', filter.from)
        .where('minute', '<', filter.to);
      if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
      if (filter.apiKeyId !== undefined) query = query.where('api_key_id', '=', filter.apiKeyId);
      const rows = await query.orderBy('minute').orderBy('api_key_id').orderBy('model').limit(10_000).execute();
      return rows.map((row): RefusedRequestCount => ({
        minute: Number(row.minute),
        userId: row.user_id,
        apiKeyId: row.api_key_id,
        model: row.model,
        status: Number(row.status),
        errorCode: row.error_code,
        count: Number(row.count),
      }));
    },

    async listApiKeyLastUsedTimes(filter = {}) {
      let query = database.selectFrom('api_keys').select(['id', 'last_used_at']).where('last_used_at', 'is not', null);
      if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
      const rows = await query.execute();
      return new Map(rows.map((row) => [row.id, Number(row.last_used_at)]));
    },

    deleteOldestRows: (batch) => deleteOldestRows(database, dialect, batch),

    async deleteUsageLogsBefore(time) {
      // Every retained table in short batches, one after another, so no statement holds the writer for long.
      let deletedLogs = 0;
      for (const batch of usageRetentionBatches(time, 5_000)) {
        for (;;) {
          const deleted = await deleteOldestRows(database, dialect, batch);
          if (batch.table === 'usage_logs') deletedLogs += deleted;
          if (deleted < batch.limit) break;
        }
      }
      return deletedLogs;
    },

    async createAdminToken(token) {
      await database
        .insertInto('admin_tokens')
        .values({
          token_hash: token.tokenHash,
          id: createRecordId('adm', clock()),
          name: token.name,
          created_at: clock(),
          expires_at: token.expiresAt ?? clock() + defaultAdminTokenLifetimeMs,
        })
        .execute();
    },
  };
}

function requireUrl(databaseUrl: string | undefined): string {
  if (!databaseUrl) throw new Error('createBillingStore needs a databaseUrl or an open database');
  return databaseUrl;
}

async function readBillingRevision(executor: DatabaseExecutor): Promise<number> {
  const row = await executor.selectFrom('billing_revision').select('revision').where('id', '=', 1).executeTakeFirst();
  if (row === undefined) throw new Error('The billing_revision row is missing; run the database migrations first');
  return Number(row.revision);
}

const userColumns = ['id', 'email', 'display_name', 'role', 'password_hash', 'status', 'created_at'] as const;

function decodeUser(row: {
  id: string;
  email: string;
  display_name: string;
  role: 'admin' | 'user';
  password_hash: string | null;
  status: 'active' | 'disabled';
  created_at: number;
}) {
  return {
    id: row.id,
    email: row.email,
    displayName: row.display_name,
    role: row.role,
    passwordHash: row.password_hash,
    status: row.status,
    createdAt: Number(row.created_at),
  };
}

function decodeLimits(row: {
  requests_per_minute: number | null;
  tokens_per_minute: number | null;
  max_concurrent_requests: number | null;
}): RequestLimits {
  const read = (value: number | null) => (value === null ? null : Number(value));
  return {
    requestsPerMinute: read(row.requests_per_minute),
    tokensPerMinute: read(row.tokens_per_minute),
    maxConcurrentRequests: read(row.max_concurrent_requests),
  };
}

function encodeLimits(limits: RequestLimits) {
  return {
    requests_per_minute: limits.requestsPerMinute,
    tokens_per_minute: limits.tokensPerMinute,
    max_concurrent_requests: limits.maxConcurrentRequests,
  };
}

function encodeLedgerEntry(entry: LedgerEntryRecord): Insertable<LedgerEntriesTable> {
  return {
    id: entry.id,
    user_id: entry.userId,
    kind: entry.kind,
    amount: entry.amount,
    debt_change: entry.debtChange,
    description: entry.description,
    reference: entry.reference,
    created_at: entry.createdAt,
  };
}

function decodeLedgerEntry(row: Selectable<LedgerEntriesTable>): LedgerEntryRecord {
  return {
    id: row.id,
    userId: row.user_id,
    kind: row.kind as LedgerKind,
    amount: Number(row.amount),
    debtChange: Number(row.debt_change),
    description: row.description,
    reference: row.reference,
    createdAt: Number(row.created_at),
  };
}

function encodeModelPrice(price: ModelPrice, now: number): ModelPricesTable {
  return {
    model_id: price.modelId,
    input_per_million: price.inputPerMillion,
    cached_input_per_million: price.cachedInputPerMillion,
    cache_write_per_million: price.cacheWritePerMillion,
    cache_write_one_hour_per_million: price.cacheWriteOneHourPerMillion ?? null,
    output_per_million: price.outputPerMillion,
    image_prices: JSON.stringify(price.imagePrices),
    audio_per_minute: price.audioPerMinute,
    video_per_second: price.videoPerSecond,
    updated_at: now,
  };
}

function decodeModelPrice(row: Selectable<ModelPricesTable>): ModelPrice {
  return {
    modelId: row.model_id,
    inputPerMillion: Number(row.input_per_million),
    cachedInputPerMillion: Number(row.cached_input_per_million),
    cacheWritePerMillion: Number(row.cache_write_per_million),
    ...(row.cache_write_one_hour_per_million === null
      ? {}
      : { cacheWriteOneHourPerMillion: Number(row.cache_write_one_hour_per_million) }),
    outputPerMillion: Number(row.output_per_million),
    imagePrices: JSON.parse(row.image_prices) as Record<string, number>,
    audioPerMinute: Number(row.audio_per_minute),
    videoPerSecond: Number(row.video_per_second),
  };
}

function decodeUsageLog(
  row: Selectable<UsageLogsTable & UsageLogRequestIdColumns & UsageLogPricingColumns>,
): UsageLogRecord {
  return {
    id: row.id,
    createdAt: Number(row.created_at),
    userId: row.user_id,
    apiKeyId: row.api_key_id,
    model: row.model,
    channelId: row.channel_id,
    endpoint: row.endpoint,
    promptTokens: Number(row.prompt_tokens),
    completionTokens: Number(row.completion_tokens),
    cachedTokens: Number(row.cached_tokens),
    cacheWriteTokens: Number(row.cache_write_tokens),
    cacheWriteOneHourTokens: Number(row.cache_write_one_hour_tokens ?? 0),
    cost: Number(row.cost),
    status: Number(row.status),
    errorCode: row.error_code,
    latencyMs: Number(row.latency_ms),
    firstTokenMs: row.first_token_ms === null ? null : Number(row.first_token_ms),
    streamed: Number(row.streamed) === 1,
    clientIp: row.client_ip,
    requestId: row.request_id,
    pricing: decodeUsageLogPricing(row),
  };
}

/** The pricing columns of a usage log, or null when the row has none (refused, or written before migration 0013). */
function decodeUsageLogPricing(row: Selectable<UsageLogPricingColumns>): RequestPricing | null {
  if (row.price_ratio_millionths === null) return null;
  return {
    inputPerMillion: Number(row.price_input_per_million ?? 0),
    cachedInputPerMillion: Number(row.price_cached_input_per_million ?? 0),
    cacheWritePerMillion: Number(row.price_cache_write_per_million ?? 0),
    cacheWriteOneHourPerMillion: Number(row.price_cache_write_one_hour_per_million ?? 0),
    outputPerMillion: Number(row.price_output_per_million ?? 0),
    priceRatioMillionths: Number(row.price_ratio_millionths),
    imageCost: Number(row.image_cost ?? 0),
    audioMilliseconds: Number(row.audio_milliseconds ?? 0),
    audioPerMinute: Number(row.price_audio_per_minute ?? 0),
    videoCost: Number(row.video_cost ?? 0),
  };
}
