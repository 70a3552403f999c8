import type { Redis } from 'ioredis';
import type { StoredBalance } from '../storage/billing-records.js';
import { StoreUnavailableError } from '../storage/store-unavailable-error.js';

// Wallet hash fields: `durable` and `debt` (the stored balance and debt at `sequence`), and per node `held:<node>`
// (live holds), `pending:<node>` (settled charges that node has not written yet) and `debt:<node>` (debt it has
// not written yet). Spendable = durable − Σ held − Σ pending; owed = debt + Σ debt:<node>.
const spendableLua = `
local fields = redis.call('HGETALL', KEYS[1])
local spendable = 0
local owed = 0
for index = 1, #fields, 2 do
  local name = fields[index]
  local value = tonumber(fields[index + 1])
  if name == 'durable' then spendable = spendable + value
  elseif name == 'debt' or string.sub(name, 1, 5) == 'debt:' then owed = owed + value
  elseif string.sub(name, 1, 5) == 'held:' or string.sub(name, 1, 8) == 'pending:' then spendable = spendable - value end
end
`;

// Returns -1 (no wallet), 0 (insufficient), 1 (held) or 2 (an unpaid debt stands: nothing may be held).
const holdScript = `
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
${spendableLua}
if owed > 0 then return 2 end
if spendable < tonumber(ARGV[2]) then return 0 end
redis.call('HINCRBY', KEYS[1], 'held:' .. ARGV[1], ARGV[2])
redis.call('SADD', KEYS[2], ARGV[3])
return 1
`;

// Releases the hold, charges what is spendable (never below zero) and records the rest as this node's unwritten
// debt; returns {charged, uncovered}, or -1 when Redis lost the wallet.
const settleScript = `
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
redis.call('HINCRBY', KEYS[1], 'held:' .. ARGV[1], -tonumber(ARGV[2]))
${spendableLua}
local cost = tonumber(ARGV[3])
local charge = math.min(cost, math.max(0, spendable))
redis.call('HINCRBY', KEYS[1], 'pending:' .. ARGV[1], charge)
if cost > charge then redis.call('HINCRBY', KEYS[1], 'debt:' .. ARGV[1], cost - charge) end
return {charge, cost - charge}
`;

// A newer stored balance (higher sequence) replaces `durable` and `debt`; the node's written charge and debt leave
// `pending` and `debt:<node>`.
const applyScript = `
local sequence = tonumber(redis.call('HGET', KEYS[1], 'sequence') or '-1')
if sequence < tonumber(ARGV[2]) then redis.call('HSET', KEYS[1], 'durable', ARGV[1], 'sequence', ARGV[2], 'debt', ARGV[5]) end
if tonumber(ARGV[4]) ~= 0 then redis.call('HINCRBY', KEYS[1], 'pending:' .. ARGV[3], -tonumber(ARGV[4])) end
if tonumber(ARGV[6]) ~= 0 then redis.call('HINCRBY', KEYS[1], 'debt:' .. ARGV[3], -tonumber(ARGV[6])) end
return 1
`;

const heartbeatSeconds = 30;

/**
 * Balances shared by several gateway nodes through Redis: each hold is one atomic script call that checks the
 * spendable amount across every node's holds and unwritten charges. The database stays the truth: its balance
 * and sequence number overwrite Redis's copy whenever a newer one is known.
 */
export class RedisWallet {
  constructor(
    private readonly redis: Redis,
    /** unique id of this gateway process */
    readonly nodeId: string,
  ) {}

  /**
   * Takes `amount` from the user's spendable balance: `held`, `insufficient`, `debt` (an unpaid debt stands, on
   * any node), or `missing` when Redis has no copy yet.
   */
  async hold(userId: string, amount: number): Promise<'held' | 'insufficient' | 'debt' | 'missing'> {
    const result = Number(
      await reachRedis(() =>
        this.redis.eval(
          holdScript,
          2,
          walletKey(userId),
          nodeWalletsKey(this.nodeId),
          this.nodeId,
          String(amount),
          userId,
        ),
      ),
    );
    return result === 1 ? 'held' : result === 0 ? 'insufficient' : result === 2 ? 'debt' : 'missing';
  }

  /**
   * Releases a hold and records the charge as unwritten: `charged` is what the spendable balance covered (never
   * below zero), `uncovered` the rest, recorded as this node's unwritten debt. Undefined when Redis lost the wallet.
   */
  async settle(
    userId: string,
    held: number,
    cost: number,
  ): Promise<{ charged: number; uncovered: number } | undefined> {
    const result = await reachRedis(() =>
      this.redis.eval(settleScript, 1, walletKey(userId), this.nodeId, String(held), String(cost)),
    );
    if (!Array.isArray(result)) return undefined;
    return { charged: Number(result[0]), uncovered: Number(result[1]) };
  }

  /** Copies a stored balance and debt into Redis if newer, and removes this node's now-written charge and debt. */
  async apply(
    stored: StoredBalance,
    written: { charged: number; debtAdded: number } = { charged: 0, debtAdded: 0 },
  ): Promise<void> {
    await reachRedis(() => this.redis.eval(applyScript, 1, ...applyArguments(stored, this.nodeId, written)));
  }

  /** Applies many stored balances in one round trip. */
  async applyAll(balances: readonly StoredBalance[]): Promise<void> {
    if (balances.length === 0) return;
    const pipeline = this.redis.pipeline();
    for (const stored of balances)
      pipeline.eval(applyScript, 1, ...applyArguments(stored, this.nodeId, { charged: 0, debtAdded: 0 }));
    await reachRedis(() => pipeline.exec());
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

function applyArguments(
  stored: StoredBalance,
  nodeId: string,
  written: { charged: number; debtAdded: number },
): string[] {
  return [
    walletKey(stored.userId),
    String(stored.balance),
    String(stored.sequence),
    nodeId,
    String(written.charged),
    String(stored.debt),
    String(written.debtAdded),
  ];
}

function walletKey(userId: string): string {
  return `gateway:wallet:${userId}`;
}

function nodeWalletsKey(nodeId: string): string {
  return `gateway:node-wallets:${nodeId}`;
}

function nodeKey(nodeId: string): string {
  return `gateway:node:${nodeId}`;
}
