import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { StoredBalance } from '../storage/billing-records.js';
import { StoreUnavailableError } from '../storage/store-unavailable-error.js';
import { keySpendKey, walletEpochKey, walletKey, nodeKey, nodeWalletsKey } from './redis-wallet-keys.js';
import { keySpendMissing, walletScripts, walletStale, walletMissing } from './redis-wallet-scripts.js';

/** What this node owes the shared wallet from its own books, which reconciliation writes back into Redis. */
export interface NodeWalletBooks {
  /** micro-units of this node's settled charges and debt to the user not yet written to the database */
  unwritten(userId: string): { charged: number; debt: number };
  /** the stored balance, from the database, to create a wallet Redis does not have */
  readStoredBalance(userId: string): Promise<StoredBalance | undefined>;
  /** reloads stored balances and calls `reconcile` with them: run when Redis lost its data (a new epoch) */
  reconcileAll(): Promise<void>;
  /** micro-units of the key's stored spend as this node last read it, and of its settled costs not yet written */
  keySpend(apiKeyId: string): { stored: number; unwritten: number };
  /** runs `work` while no settlement batch is being written or copied, so the queue and the database agree */
  exclusive<Result>(work: () => Promise<Result>): Promise<Result>;
}

/** The API key a hold or settlement is for, and its spending cap in micro-units (null: none). */
export interface WalletKey {
  apiKeyId: string;
  spendingCap: number | null;
}

/** What a settlement did: `charged` came from the spendable balance, `uncovered` became this node's unwritten debt. */
export interface WalletSettlement {
  charged: number;
  uncovered: number;
}

/** How far Redis was from the books and the database at the last reconciliation, in micro-units (all corrected). */
export interface WalletDrift {
  /** Σ |Redis's field − this node's books| over this node's held, pending and debt fields */
  nodeFields: number;
  /** Σ |Redis's durable balance and debt − the database's| where both had the same sequence */
  durable: number;
  /** wallets Redis no longer had, created again from the database */
  recreated: number;
  /** Unix milliseconds of the reconciliation */
  at: number;
}

const heartbeatSeconds = 30;
/** Attempts of one hold or settlement across a lost wallet or a new epoch before it counts as failed. */
const attemptsPerCall = 3;

/**
 * Balances shared by several gateway nodes through Redis: each hold is one atomic script call that checks the
 * spendable amount across every node's holds and unwritten charges. The database stays the truth: its balance
 * and sequence number overwrite Redis's copy whenever a newer one is known, and each node's fields are rewritten
 * from its own books (confirmed holds, the settlement queue) by `reconcile`, so a Redis that lost data, froze or ran
 * commands late heals at the next reconciliation. An epoch key marks Redis's data: a node that finds it changed
 * (Redis came back empty) rewrites everything it owes before it holds again.
 */
export class RedisWallet {
  /** micro-units held per user that Redis confirmed and no settlement has released */
  private readonly confirmedHeld = new Map<string, number>();
  /** the same per API key */
  private readonly confirmedKeyHeld = new Map<string, number>();
  /** wallet commands per user sent and not yet answered: reconciliation leaves their node fields alone */
  private readonly commandsInFlight = new Map<string, number>();
  private epoch: string | undefined;
  private rejoining: Promise<void> | undefined;
  /** the last reconciliation's corrections, for `/metrics` */
  lastDrift: WalletDrift | undefined;
  /** micro-units of drift corrected by every reconciliation since start */
  correctedMicroUnits = 0;

  constructor(
    private readonly redis: Redis,
    /** unique id of this gateway process */
    readonly nodeId: string,
    private readonly books: NodeWalletBooks,
  ) {}

  /** Adopts Redis's epoch (creating one on an empty Redis); call before the first hold. */
  async join(): Promise<void> {
    await reachRedis(async () => {
      await this.redis.set(walletEpochKey, randomUUID(), 'NX');
      this.epoch = (await this.redis.get(walletEpochKey)) ?? undefined;
    });
  }

  /**
   * Takes `amount` from the user's spendable balance and adds it to the key's spend: `held`, `insufficient`, `debt`
   * (an unpaid debt stands, on any node), `cap` (the key's spend on every node would pass its cap), or `missing` when
   * neither Redis nor the database knows the user.
   */
  async hold(
    userId: string,
    amount: number,
    key: WalletKey,
  ): Promise<'held' | 'insufficient' | 'debt' | 'cap' | 'missing'> {
    for (let attempt = 0; attempt < attemptsPerCall; attempt++) {
      const result = Number(
        await this.send(
          [userId, keyFlight(key.apiKeyId)],
          (epoch) =>
            this.redis.eval(
              walletScripts.hold,
              4,
              walletKey(userId),
              walletEpochKey,
              nodeWalletsKey(this.nodeId),
              keySpendKey(key.apiKeyId),
              epoch,
              this.nodeId,
              String(amount),
              userId,
              String(key.spendingCap ?? -1),
            ),
          (answer) => {
            if (Number(answer) !== 1) return;
            addTo(this.confirmedHeld, userId, amount);
            addTo(this.confirmedKeyHeld, key.apiKeyId, amount);
          },
        ),
      );
      if (result === walletStale) await this.rejoin();
      else if (result === walletMissing) {
        if (!(await this.create(userId))) return 'missing';
      } else if (result === keySpendMissing) await this.reconcileKeys([{ apiKeyId: key.apiKeyId }]);
      else return result === 1 ? 'held' : result === 0 ? 'insufficient' : result === 3 ? 'cap' : 'debt';
    }
    throw new StoreUnavailableError('redis', new Error('the shared wallet kept changing under a hold'));
  }

  /**
   * Releases a hold and records the charge as unwritten: `charged` is what the spendable balance covered (never
   * below zero), `uncovered` the rest, recorded as this node's unwritten debt. `record` runs at once with the outcome
   * (undefined when Redis could not settle: the caller charges from memory), before any reconciliation can look at
   * this node's books, so the charge it queues and Redis's copy never disagree.
   */
  async settle(
    userId: string,
    held: number,
    cost: number,
    apiKeyId: string,
    record: (settlement: WalletSettlement | undefined) => void,
  ): Promise<void> {
    let done = false;
    // The hold leaves the books and the charge is recorded exactly once, whatever happens after.
    const finish = (settlement: WalletSettlement | undefined) => {
      if (done) return;
      done = true;
      addTo(this.confirmedHeld, userId, -held);
      addTo(this.confirmedKeyHeld, apiKeyId, -held);
      record(settlement);
    };
    try {
      for (let attempt = 0; attempt < attemptsPerCall; attempt++) {
        const result = await this.send(
          [userId, keyFlight(apiKeyId)],
          (epoch) =>
            this.redis.eval(
              walletScripts.settle,
              3,
              walletKey(userId),
              walletEpochKey,
              keySpendKey(apiKeyId),
              epoch,
              this.nodeId,
              String(held),
              String(cost),
            ),
          (answer) => {
            if (Array.isArray(answer)) finish({ charged: Number(answer[0]), uncovered: Number(answer[1]) });
          },
        );
        if (Array.isArray(result)) return;
        if (Number(result) === walletStale) await this.rejoin();
        else if (!(await this.create(userId))) break;
      }
    } catch (error) {
      // The request is over whatever Redis says: its hold leaves the books, and reconciliation writes that back.
      finish(undefined);
      throw error;
    }
    finish(undefined);
  }

  /** Releases a hold with nothing charged (a refused or failed task submission). */
  async release(userId: string, held: number, apiKeyId: string): Promise<void> {
    await this.settle(userId, held, 0, apiKeyId, () => undefined);
  }

  /**
   * Copies a stored balance and debt into Redis if newer, and removes this node's now-written charge and debt. A
   * wallet Redis does not have is left for the next hold to create; a new epoch is left for reconciliation.
   */
  async apply(
    stored: StoredBalance,
    written: { charged: number; debtAdded: number } = { charged: 0, debtAdded: 0 },
  ): Promise<void> {
    const epoch = this.epoch ?? '';
    await reachRedis(() =>
      this.redis.eval(walletScripts.apply, 2, ...applyArguments(stored, epoch, this.nodeId, written)),
    );
  }

  /** After a batch is written: the key's written cost leaves this node's unwritten spend and joins its stored spend. */
  async applyKeySpend(apiKeyId: string, written: number): Promise<void> {
    if (written === 0) return;
    const epoch = this.epoch ?? '';
    await reachRedis(() =>
      this.redis.eval(
        walletScripts.applyKeySpend,
        2,
        keySpendKey(apiKeyId),
        walletEpochKey,
        epoch,
        this.nodeId,
        String(written),
      ),
    );
  }

  /**
   * Rewrites keys' spend in Redis: the stored spend when given (a snapshot of the database) or when Redis lacks it
   * (this node's last reading), and this node's held and unwritten spend from its books, for keys with no command in
   * flight. Returns the micro-units of the node's fields corrected.
   */
  async reconcileKeys(keys: ReadonlyArray<{ apiKeyId: string; spent?: number }>): Promise<number> {
    if (keys.length === 0) return 0;
    const epoch = this.epoch ?? '';
    const pipeline = this.redis.pipeline();
    const expected: Array<[held: number, pending: number]> = [];
    for (const { apiKeyId, spent } of keys) {
      const settled = (this.commandsInFlight.get(keyFlight(apiKeyId)) ?? 0) === 0;
      const books = this.books.keySpend(apiKeyId);
      const held = this.confirmedKeyHeld.get(apiKeyId) ?? 0;
      expected.push([held, books.unwritten]);
      pipeline.eval(
        walletScripts.reconcileKeySpend,
        2,
        keySpendKey(apiKeyId),
        walletEpochKey,
        epoch,
        this.nodeId,
        spent === undefined ? '' : String(spent),
        String(held),
        String(books.unwritten),
        settled ? '1' : '0',
        String(books.stored),
      );
    }
    const results = (await reachRedis(() => pipeline.exec())) ?? [];
    let corrected = 0;
    results.forEach(([error, result], index) => {
      if (error) throw new StoreUnavailableError('redis', error);
      if (!Array.isArray(result) || result[2] !== 1) return;
      const [expectedHeld, expectedPending] = expected[index]!;
      corrected += Math.abs(Number(result[0]) - expectedHeld) + Math.abs(Number(result[1]) - expectedPending);
    });
    this.correctedMicroUnits += corrected;
    return corrected;
  }

  /** The keys this node holds money for (confirmed by Redis). */
  keysHeld(): IterableIterator<string> {
    return this.confirmedKeyHeld.keys();
  }

  /**
   * Rewrites Redis from the truth: each user's durable balance and debt from the database (a newer sequence, or the
   * same sequence with other values), and this node's held, pending and debt fields from its books, for every user
   * with no wallet command in flight (those are reconciled next time). Wallets Redis lost are created again. Returns
   * and keeps (`lastDrift`) how much it corrected.
   */
  async reconcile(balances: readonly StoredBalance[], now: number): Promise<WalletDrift> {
    const epoch = this.epoch ?? '';
    const pipeline = this.redis.pipeline();
    const users: string[] = [];
    const expected: Array<[held: number, pending: number, debt: number]> = [];
    // Computed and queued with no await in between: nothing of this node's books can change while it is built.
    for (const stored of balances) {
      const settled = (this.commandsInFlight.get(stored.userId) ?? 0) === 0;
      const held = this.confirmedHeld.get(stored.userId) ?? 0;
      const { charged, debt } = this.books.unwritten(stored.userId);
      users.push(stored.userId);
      expected.push([held, charged, debt]);
      pipeline.eval(
        walletScripts.reconcile,
        3,
        walletKey(stored.userId),
        walletEpochKey,
        nodeWalletsKey(this.nodeId),
        epoch,
        String(stored.balance),
        String(stored.sequence),
        String(stored.debt),
        this.nodeId,
        String(held),
        String(charged),
        String(debt),
        settled ? '1' : '0',
        stored.userId,
      );
    }
    const drift: WalletDrift = { nodeFields: 0, durable: 0, recreated: 0, at: now };
    if (users.length === 0) return (this.lastDrift = drift);
    const results = (await reachRedis(() => pipeline.exec())) ?? [];
    let stale = false;
    results.forEach(([error, result], index) => {
      if (error) throw new StoreUnavailableError('redis', error);
      if (!Array.isArray(result)) {
        stale ||= Number(result) === walletStale;
        return;
      }
      const [existed, durableDrift, held, pending, debt] = result.map(Number);
      const [expectedHeld, expectedPending, expectedDebt] = expected[index]!;
      if (existed === 0) drift.recreated += 1;
      drift.durable += durableDrift ?? 0;
      if (result[5] === 1)
        drift.nodeFields +=
          Math.abs((held ?? 0) - expectedHeld) +
          Math.abs((pending ?? 0) - expectedPending) +
          Math.abs((debt ?? 0) - expectedDebt);
    });
    this.lastDrift = drift;
    this.correctedMicroUnits += drift.nodeFields + drift.durable;
    if (stale) void this.rejoin().catch(() => undefined);
    return drift;
  }

  /** The users this node has fields for in Redis (its user set), to reconcile them even when its books are empty. */
  async usersWithFields(): Promise<string[]> {
    return reachRedis(() => this.redis.smembers(nodeWalletsKey(this.nodeId)));
  }

  /** The users this node holds money for (confirmed by Redis). */
  usersHeld(): IterableIterator<string> {
    return this.confirmedHeld.keys();
  }

  /** Marks this node alive; a node silent for 30 s is presumed dead and its holds are dropped by `removeDeadNodes`. */
  async beat(): Promise<void> {
    await reachRedis(() => this.redis.set(nodeKey(this.nodeId), '1', 'EX', heartbeatSeconds));
  }

  /** Drops holds and unwritten charges of dead nodes (their batches died with them); returns the users touched. */
  async removeDeadNodes(): Promise<string[]> {
    const touched: string[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', nodeWalletsKey('*'), 'COUNT', 100);
      cursor = next;
      for (const key of keys) {
        const nodeId = key.slice(nodeWalletsKey('').length);
        if (nodeId === this.nodeId || (await this.redis.exists(nodeKey(nodeId))) === 1) continue;
        const userIds = await this.redis.smembers(key);
        for (const userId of userIds)
          await this.redis.hdel(walletKey(userId), `held:${nodeId}`, `pending:${nodeId}`, `debt:${nodeId}`);
        await this.redis.del(key);
        touched.push(...userIds);
      }
    } while (cursor !== '0');
    return touched;
  }

  /** On graceful shutdown, after the last batch is written: this node holds nothing any more. */
  async leave(): Promise<void> {
    const key = nodeWalletsKey(this.nodeId);
    const userIds = await this.redis.smembers(key);
    for (const userId of userIds)
      await this.redis.hdel(walletKey(userId), `held:${this.nodeId}`, `pending:${this.nodeId}`, `debt:${this.nodeId}`);
    await this.redis.del(key, nodeKey(this.nodeId));
  }

  /**
   * Sends one wallet command with this node's epoch, counted in flight (per user and key in `flights`) until
   * `onAnswer` has applied its answer to the books.
   */
  private async send(
    flights: readonly string[],
    command: (epoch: string) => Promise<unknown>,
    onAnswer: (answer: unknown) => void,
  ): Promise<unknown> {
    if (this.epoch === undefined) await this.join();
    for (const flight of flights) addTo(this.commandsInFlight, flight, 1);
    try {
      const answer = await reachRedis(() => command(this.epoch ?? ''));
      // Still counted in flight: the books change with Redis's answer before any reconciliation may read them.
      onAnswer(answer);
      return answer;
    } finally {
      for (const flight of flights) addTo(this.commandsInFlight, flight, -1);
    }
  }

  /**
   * Creates the user's wallet from the database's stored balance and this node's books (other nodes add theirs when
   * they reconcile or find the epoch changed). False when the database does not know the user.
   */
  private create(userId: string): Promise<boolean> {
    return this.books.exclusive(async () => {
      const stored = await this.books.readStoredBalance(userId);
      if (!stored) return false;
      await this.reconcile([stored], Date.now());
      return true;
    });
  }

  /** Redis came back without this node's epoch: adopt the new one and write everything this node owes again. */
  private rejoin(): Promise<void> {
    this.rejoining ??= (async () => {
      try {
        await this.join();
        // The heartbeat went with the data: beat before another node's sweep takes this node for dead.
        await this.beat();
        await this.books.reconcileAll();
      } finally {
        this.rejoining = undefined;
      }
    })();
    return this.rejoining;
  }
}

/**
 * Runs Redis commands; a failure (a command timeout on a frozen server, a refused command while disconnected) becomes
 * StoreUnavailableError, which a request answers with 503 and `Retry-After`.
 */
async function reachRedis<Result>(work: () => Promise<Result>): Promise<Result> {
  try {
    return await work();
  } catch (error) {
    throw new StoreUnavailableError('redis', error);
  }
}

/** Adds `change` to a per-id amount, removing the entry at zero. */
function addTo(amounts: Map<string, number>, id: string, change: number): void {
  const amount = (amounts.get(id) ?? 0) + change;
  if (amount === 0) amounts.delete(id);
  else amounts.set(id, amount);
}

/** The in-flight counter name of a key's commands (users are counted by their id). */
function keyFlight(apiKeyId: string): string {
  return `key:${apiKeyId}`;
}

function applyArguments(
  stored: StoredBalance,
  epoch: string,
  nodeId: string,
  written: { charged: number; debtAdded: number },
): string[] {
  return [
    walletKey(stored.userId),
    walletEpochKey,
    epoch,
    String(stored.balance),
    String(stored.sequence),
    nodeId,
    String(written.charged),
    String(stored.debt),
    String(written.debtAdded),
  ];
}
