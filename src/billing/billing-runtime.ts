import { randomUUID } from 'node:crypto';
import { waitForCheckStartedAfter } from '../core/wait-for-check-started-after.js';
import type { Redis as RedisClient } from 'ioredis';
import type { Logger } from 'pino';
import type { CatalogModel } from '../routing/catalog-model.js';
import type { BalanceChangeResult, NewBalanceChange, SettledBalance } from '../storage/billing-records.js';
import type { BillingStore } from '../storage/billing-store.js';
import type { BillingConfig } from './billing-config.js';
import { BillingMemory } from './billing-memory.js';
import { HoldTally } from './hold-tally.js';
import { createRedisClient, watchRedisErrors } from './create-redis-client.js';
import { createRateLimitedLog } from './rate-limited-log.js';
import { RedisWallet, type WalletDrift } from './redis-wallet.js';
import { LocalRequestRateLimiter } from './local-request-rate-limiter.js';
import type { RequestRateLimiter } from './request-rate-limiter.js';
import { SettlementBatchWriter, type PendingCharge } from './settlement-batch-writer.js';
import { SharedRequestRateLimiter } from './shared-request-rate-limiter.js';
import { TokenizerWorkerClient } from './tokenizer-worker/tokenizer-worker-client.js';
import type { RequestBodyStore } from '../storage/request-body-store.js';
import { RequestBodyLog } from './request-body-log.js';
import { sweepExpiredRows, type RetentionSweepResult } from './sweep-expired-rows.js';

/** What the billing runtime is built from. */
export interface BillingRuntimeOptions {
  store: BillingStore;
  config: BillingConfig;
  logger: Logger;
  /** Unix milliseconds */
  clock: () => number;
  /** how often to check the billing revision, in milliseconds (the routing refresh interval) */
  revisionCheckIntervalMs: number;
  /** catalog models whose `defaultPrices` are the prices of models no operator priced */
  catalogModels?: readonly CatalogModel[];
  /** where request and response bodies are kept when GATEWAY_REQUEST_BODY_LOG=on (and pruned by their retention) */
  requestBodies?: RequestBodyStore;
  /** milliseconds between two retention batches (default 50), so settlement batches run between them */
  retentionPauseMs?: number;
}

const retentionSweepIntervalMs = 3_600_000;
const firstRetentionSweepDelayMs = 60_000;
const heartbeatIntervalMs = 10_000;
const deadNodeSweepIntervalMs = 30_000;
/** Redis channel on which nodes announce changes to keys, balances, prices and limits. */
export const invalidationChannel = 'gateway:invalidate';
const defaultRetentionPauseMs = 50;

/**
 * The running billing state of one gateway node: balances and holds in memory, the batch writer that makes
 * settled money durable, rate-limit counters, and the polling that picks up credits and price changes.
 */
export class BillingRuntime {
  readonly memory: BillingMemory;
  readonly writer: SettlementBatchWriter;
  /** the holds of requests in flight on this node (read by `/metrics`) */
  readonly holds = new HoldTally();
  readonly rateLimiter: RequestRateLimiter;
  /** counts the tokens of answers without vendor usage (and Messages `count_tokens`) in a worker thread started on demand */
  readonly tokenCounter: TokenizerWorkerClient;
  /** balances shared by several nodes, when Redis is configured */
  readonly wallet: RedisWallet | undefined;
  /** the request and response body log, when GATEWAY_REQUEST_BODY_LOG=on and a body store was given */
  readonly requestBodyLog: RequestBodyLog | undefined;
  private retentionSweep: Promise<RetentionSweepResult> | undefined;
  private closing = false;
  private readonly redis: RedisClient | undefined;
  private readonly settlementsInFlight = new Set<Promise<void>>();
  private subscriber: RedisClient | undefined;
  private readonly invalidationListeners: Array<() => Promise<void>> = [];
  private lastCheckAt = 0;
  private fullLoadCount = 0;
  private pendingRefresh: Promise<void> | undefined;
  private readonly timers: NodeJS.Timeout[] = [];

  private constructor(readonly options: BillingRuntimeOptions) {
    this.memory = new BillingMemory(options.catalogModels);
    const { redisUrl, redisCommandTimeoutMs, redisConnectTimeoutMs } = options.config;
    this.redis = redisUrl
      ? createRedisClient(redisUrl, {
          commandTimeoutMs: redisCommandTimeoutMs,
          connectTimeoutMs: redisConnectTimeoutMs,
          logger: options.logger,
          role: 'commands',
        })
      : undefined;
    this.wallet = this.redis
      ? new RedisWallet(this.redis, `node_${randomUUID().replaceAll('-', '')}`, {
          unwritten: (userId) => {
            const pending = this.writer.pendingAmounts();
            return { charged: pending.byUser.get(userId) ?? 0, debt: pending.debtByUser.get(userId) ?? 0 };
          },
          readStoredBalance: (userId) => options.store.readStoredBalance(userId),
          reconcileAll: () => this.refresh(true),
          exclusive: (work) => this.writer.runExclusive(work),
          keySpend: (apiKeyId) => {
            const unwritten = this.writer.pendingAmounts().byKey.get(apiKeyId) ?? 0;
            // Memory's spend is the last stored one plus this node's charges since.
            return { stored: (this.memory.key(apiKeyId)?.spent ?? unwritten) - unwritten, unwritten };
          },
        })
      : undefined;
    this.writer = new SettlementBatchWriter({
      store: options.store,
      intervalMs: options.config.flushIntervalMs,
      logger: options.logger,
      queueLimit: options.config.settlementQueueLimit,
      clock: options.clock,
      onWritten: (settled, charges) => this.applyWrittenBatch(settled, charges),
    });
    this.rateLimiter = this.redis
      ? new SharedRequestRateLimiter(this.redis)
      : new LocalRequestRateLimiter(options.clock);
    this.tokenCounter = new TokenizerWorkerClient({ logger: options.logger });
    const bodyLog = options.config.requestBodyLog;
    this.requestBodyLog =
      bodyLog.enabled && options.requestBodies
        ? new RequestBodyLog({ store: options.requestBodies, maxBytes: bodyLog.maxBytes, logger: options.logger })
        : undefined;
  }

  /** Loads balances, prices and limits, then starts the batch writer and the revision polling. */
  static async start(options: BillingRuntimeOptions): Promise<BillingRuntime> {
    const runtime = new BillingRuntime(options);
    try {
      await runtime.redis?.connect();
      await runtime.wallet?.join();
      await runtime.wallet?.beat();
      await runtime.refresh(true);
      await runtime.subscribeToInvalidations();
    } catch (error) {
      // An unreachable Redis or database must not leave connections keeping the process alive.
      await runtime.close();
      throw error;
    }
    runtime.writer.start();
    runtime.requestBodyLog?.start();
    // A store that is down fails every tick: each timer logs its first failure, then one line per 10 s, and carries on.
    if (options.revisionCheckIntervalMs > 0)
      runtime.every(options.revisionCheckIntervalMs, 'billing refresh failed', () => runtime.refresh(false));
    // Other nodes' settlements do not bump the revision; a periodic full reload brings their charges in.
    if (options.config.reloadIntervalMs > 0)
      runtime.every(options.config.reloadIntervalMs, 'billing reload failed', () => runtime.refresh(true));
    const wallet = runtime.wallet;
    if (wallet) {
      runtime.every(heartbeatIntervalMs, 'redis heartbeat failed', () => wallet.beat());
      runtime.every(deadNodeSweepIntervalMs, 'removing dead nodes failed', () => runtime.removeDeadNodes());
      if (options.config.walletReconcileIntervalMs > 0)
        runtime.every(options.config.walletReconcileIntervalMs, 'reconciling the shared wallet failed', () =>
          runtime.reconcileWallet(),
        );
      // Back from an outage: holds and charges of the outage may have run late or not at all; rewrite them now.
      runtime.redis?.on('ready', () => {
        runtime
          .reconcileWallet()
          .catch((error: unknown) =>
            options.logger.warn({ err: error }, 'reconciling the shared wallet after a reconnection failed'),
          );
      });
    }
    const bodiesExpire = options.requestBodies !== undefined && options.config.requestBodyLog.retentionDays > 0;
    if (options.config.usageLogRetentionDays > 0 || bodiesExpire) {
      runtime.every(retentionSweepIntervalMs, 'usage log retention failed', () => runtime.sweepRetention());
      // A node restarted more often than hourly would never sweep: the first sweep runs a minute after the start.
      const firstSweep = setTimeout(() => {
        runtime
          .sweepRetention()
          .catch((error: unknown) => options.logger.error({ err: error }, 'usage log retention failed'));
      }, firstRetentionSweepDelayMs);
      firstSweep.unref();
      runtime.timers.push(firstSweep);
    }
    return runtime;
  }

  get config(): BillingConfig {
    return this.options.config;
  }

  get store(): BillingStore {
    return this.options.store;
  }

  /** the Redis client this node shares counters through, or undefined without Redis (sign-in limits use it too) */
  get sharedRedis(): RedisClient | undefined {
    return this.redis;
  }

  /**
   * The cheap checks `/readyz` runs (through a cached probe): a one-row read of the billing revision, and Redis PING
   * when Redis is configured. Each rejects when its store cannot answer within its timeouts.
   */
  storeChecks(): { database: () => Promise<void>; redis?: () => Promise<void> } {
    const database = async (): Promise<void> => {
      await this.options.store.readBillingRevision();
    };
    const redis = this.redis;
    if (!redis) return { database };
    return {
      database,
      redis: async () => {
        await redis.ping();
      },
    };
  }

  /** Reloads from the database when the billing revision moved (or always, when forced); callers share one load. */
  refresh(force: boolean): Promise<void> {
    if (this.pendingRefresh && !force) return this.pendingRefresh;
    const refresh = this.writer.runExclusive(async () => {
      this.lastCheckAt = this.options.clock();
      const { store } = this.options;
      if (!force && (await store.readBillingRevision()) === this.memory.revision) return;
      if (!force && (await this.applyKeyChanges())) return;
      const snapshot = await store.loadBillingSnapshot();
      this.fullLoadCount += 1;
      // Runs while no batch is being written, so the queue holds exactly the charges the snapshot lacks.
      const pending = this.writer.pendingAmounts();
      this.memory.load(snapshot, pending.byUser, pending.byKey, pending.debtByUser);
      const wallet = this.wallet;
      if (wallet)
        await Promise.all([
          wallet.reconcile(snapshot.users, this.options.clock()),
          wallet.reconcileKeys(snapshot.apiKeys.map(({ apiKeyId, spent }) => ({ apiKeyId, spent }))),
        ]).catch((error: unknown) => this.options.logger.warn({ err: error }, 'copying balances to redis failed'));
    });
    const shared = refresh.finally(() => {
      if (this.pendingRefresh === shared) this.pendingRefresh = undefined;
    });
    this.pendingRefresh = shared;
    return shared;
  }

  /**
   * Rewrites the shared wallet for every user this node has holds or unwritten charges for, or had fields for in
   * Redis: their stored balances from the database, this node's fields from its books. Runs while no batch is being
   * written, so the settlement queue and Redis's copy of it agree. Returns the corrections made.
   */
  async reconcileWallet(): Promise<WalletDrift | undefined> {
    const wallet = this.wallet;
    if (!wallet) return undefined;
    return this.writer.runExclusive(async () => {
      const pending = this.writer.pendingAmounts();
      const userIds = new Set([...(await wallet.usersWithFields()), ...wallet.usersHeld(), ...pending.byUser.keys()]);
      for (const userId of pending.debtByUser.keys()) userIds.add(userId);
      const balances = await this.options.store.readStoredBalances([...userIds]);
      const drift = await wallet.reconcile(balances, this.options.clock());
      drift.nodeFields += await wallet.reconcileKeys(
        [...new Set([...wallet.keysHeld(), ...pending.byKey.keys()])].map((apiKeyId) => ({ apiKeyId })),
      );
      if (drift.nodeFields > 0 || drift.durable > 0 || drift.recreated > 0)
        this.options.logger.warn({ drift }, 'the shared wallet differed from the books and the database; corrected');
      return drift;
    });
  }

  /** Resolves once a revision check that started after `since` has finished, so a top-up made just before counts. */
  refreshStartedAfter(since: number, minimumGapMs: number): Promise<void> {
    return waitForCheckStartedAfter(
      {
        lastCheckStartedAt: () => this.lastCheckAt,
        pendingCheck: () => this.pendingRefresh,
        startCheck: () => this.refresh(false),
        clock: () => this.options.clock(),
      },
      since,
      minimumGapMs,
    );
  }

  /**
   * Credits or debits a balance durably (ledger and balance in one transaction; a credit pays any debt first),
   * then updates memory on every node.
   */
  async changeBalance(change: NewBalanceChange): Promise<BalanceChangeResult> {
    const result = await this.exclusive(() => this.options.store.changeBalance(change));
    // The change is durable: a Redis that is down only delays its copy (the next reload or hold copies it again).
    await this.wallet
      ?.apply({ userId: change.userId, balance: result.balance, debt: result.debt, sequence: result.sequence })
      .catch((error: unknown) => this.options.logger.warn({ err: error }, 'copying a balance change to redis failed'));
    await this.announceChange();
    return result;
  }

  /**
   * Runs a multi-statement database write while no settlement batch is being written, so it lands after every
   * settlement already queued. (Both stores share one database in `startGateway`, so SQLite cannot lock itself.)
   * Never call `refresh` or `changeBalance` from inside `work` (they queue behind it).
   */
  exclusive<Result>(work: () => Promise<Result>): Promise<Result> {
    return this.writer.runExclusive(work);
  }

  /** Reloads this node now and, with Redis, tells every other node to reload before its next request. */
  async announceChange(): Promise<void> {
    await this.refresh(true);
    if (this.redis)
      await this.redis
        .publish(invalidationChannel, String(this.memory.revision))
        .catch((error: unknown) => this.options.logger.warn({ err: error }, 'publishing a change failed'));
  }

  /**
   * After a change to one key's settings (or to its routing alone): this node re-reads the keys changed since its
   * revision, without a full reload when nothing else changed, and with Redis tells every other node to do the same.
   */
  async announceKeyChange(): Promise<void> {
    await this.refresh(false);
    if (this.redis)
      await this.redis
        .publish(invalidationChannel, String(this.memory.revision))
        .catch((error: unknown) => this.options.logger.warn({ err: error }, 'publishing a change failed'));
  }

  /** How many full billing snapshots this node has loaded (the first included); key-only changes do not count. */
  get fullLoads(): number {
    return this.fullLoadCount;
  }

  /** Work to run when another node announces a change (the routing cache registers its refresh here). */
  onInvalidation(listener: () => Promise<void>): void {
    this.invalidationListeners.push(listener);
  }

  /** Stops polling and writes every settled request still in memory; call after the HTTP server drained. */
  async close(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    this.closing = true;
    // A sweep stops before its next batch; its last statement finishes before the database closes.
    await this.retentionSweep?.catch(() => undefined);
    // Settlements waiting for a token count or for Redis must reach the batch before the last flush.
    await this.settlementsQueued();
    await this.tokenCounter.close();
    await this.writer.close();
    await this.requestBodyLog?.close();
    await this.wallet
      ?.leave()
      .catch((error: unknown) => this.options.logger.warn({ err: error }, 'leaving the shared wallet failed'));
    // quit fails at once while disconnected; disconnect then stops the reconnection attempts that would keep the process alive.
    const subscriber = this.subscriber;
    if (subscriber) await subscriber.quit().catch(() => subscriber.disconnect());
    const redis = this.redis;
    if (redis) await redis.quit().catch(() => redis.disconnect());
  }

  /** Resolves when every settlement still waiting for a token count or for Redis has queued its charge for the batch writer. */
  async settlementsQueued(): Promise<void> {
    await Promise.all([...this.settlementsInFlight]);
  }

  /** Keeps an asynchronous settlement (a token count, Redis) alive until it has queued its charge, so shutdown waits for it. */
  trackSettlement(settlement: Promise<void>): void {
    this.settlementsInFlight.add(settlement);
    void settlement.finally(() => this.settlementsInFlight.delete(settlement));
  }

  /**
   * After a batch committed: a debt the database paid from the balance (a credit came before the debt was written)
   * is mirrored in memory at once, and the shared wallet gets the new stored balances.
   */
  private async applyWrittenBatch(settled: SettledBalance[], charges: readonly PendingCharge[]): Promise<void> {
    for (const entry of settled) {
      if (entry.repaid === 0) continue;
      const user = this.memory.user(entry.userId);
      user.balance -= entry.repaid;
      user.debt -= entry.repaid;
    }
    const wallet = this.wallet;
    if (!wallet) return;
    const writtenByKey = new Map<string, number>();
    for (const charge of charges)
      writtenByKey.set(charge.apiKeyId, (writtenByKey.get(charge.apiKeyId) ?? 0) + charge.amount + charge.debt);
    await Promise.all([
      ...settled.map((entry) => wallet.apply(entry, entry)),
      ...[...writtenByKey].map(([apiKeyId, written]) => wallet.applyKeySpend(apiKeyId, written)),
    ]);
  }

  /** Applies the key-only changes since memory's revision; false when something else changed (then reload all). */
  private async applyKeyChanges(): Promise<boolean> {
    const changes = await this.options.store.loadApiKeyBillingChanges?.(this.memory.revision);
    if (!changes) return false;
    this.memory.applyKeyChanges(changes, this.writer.pendingAmounts().byKey);
    const wallet = this.wallet;
    if (wallet && changes.apiKeys.length > 0)
      await wallet
        .reconcileKeys(changes.apiKeys.map(({ apiKeyId, spent }) => ({ apiKeyId, spent })))
        .catch((error: unknown) => this.options.logger.warn({ err: error }, 'copying key spend to redis failed'));
    return true;
  }

  private async removeDeadNodes(): Promise<void> {
    if (!this.wallet) return;
    const userIds = await this.wallet.removeDeadNodes();
    // A dead node may have written a batch without copying the new balances to Redis: take them from the database.
    for (const userId of new Set(userIds)) {
      const stored = await this.options.store.readStoredBalance(userId);
      if (stored) await this.wallet.apply(stored);
    }
  }

  private async subscribeToInvalidations(): Promise<void> {
    if (!this.redis) return;
    const subscriber = this.redis.duplicate();
    this.subscriber = subscriber;
    watchRedisErrors(subscriber, this.options.logger, 'subscriber');
    subscriber.on('message', () => {
      const work = [this.refresh(false), ...this.invalidationListeners.map((listener) => listener())];
      Promise.all(work).catch((error: unknown) =>
        this.options.logger.error({ err: error }, 'refresh after an announced change failed'),
      );
    });
    // It connects lazily like its parent, and ioredis subscribes it again after each reconnection.
    await subscriber.connect();
    await subscriber.subscribe(invalidationChannel);
  }

  /**
   * Deletes expired usage logs, refused-request counts, hourly rollups and request bodies in small batches with a pause
   * between them, at most GATEWAY_RETENTION_MAX_ROWS_PER_RUN rows per table, and logs what went. One sweep at a time on
   * a node (a call while one runs shares it); several nodes may sweep at once (see deleteOldestRows).
   */
  sweepRetention(): Promise<RetentionSweepResult> {
    if (this.retentionSweep) return this.retentionSweep;
    const { config, logger, store, requestBodies, clock } = this.options;
    const pauseMs = this.options.retentionPauseMs ?? defaultRetentionPauseMs;
    const startedAt = clock();
    const sweep = sweepExpiredRows({
      billingStore: store,
      requestBodies,
      now: startedAt,
      usageLogRetentionDays: config.usageLogRetentionDays,
      requestBodyRetentionDays: config.requestBodyLog.retentionDays,
      batchRows: config.retentionBatchRows,
      maxRowsPerRun: config.retentionMaxRowsPerRun,
      pause: () => new Promise((resolve) => setTimeout(resolve, pauseMs)),
      stopped: () => this.closing,
    })
      .then((result) => {
        const total = Object.values(result.deleted).reduce((sum, count) => sum + count, 0);
        if (total > 0 || !result.complete)
          logger.info(
            { deleted: result.deleted, batches: result.batches, complete: result.complete, ms: clock() - startedAt },
            'retention sweep deleted expired rows',
          );
        return result;
      })
      .finally(() => {
        this.retentionSweep = undefined;
      });
    this.retentionSweep = sweep;
    return sweep;
  }

  /** Runs `work` every `intervalMs`; a failed run is logged as `failure` (rate-limited) and the next tick tries again. */
  private every(intervalMs: number, failure: string, work: () => Promise<unknown>): void {
    const log = createRateLimitedLog(this.options.logger, 'error');
    const timer = setInterval(() => {
      work().catch((error: unknown) => log(error, failure));
    }, intervalMs);
    timer.unref();
    this.timers.push(timer);
  }
}
