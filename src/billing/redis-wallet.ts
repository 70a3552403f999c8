import type { Redis } from 'ioredis';
import type { StoredBalance } from '../storage/billing-records.js';

// Wallet hash fields: `durable` (the stored balance at `sequence`), and per node `held:<node>` (live holds) and
// `pending:<node>` (settled charges that node has not written yet). Spendable = durable − Σ held − Σ pending.
const spendableLua = `
local fields = redis.call('HGETALL', KEYS[1])
local spendable = 0
for index = 1, #fields, 2 do
  local name = fields[index]
  local value = tonumber(fields[index + 1])
  if name == 'durable' then spendable = spendable + value
  elseif string.sub(name, 1, 5) == 'held:' or string.sub(name, 1, 8) == 'pending:' then spendable = spendable - value end
end
`;

const holdScript = `
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
${spendableLua}
if spendable < tonumber(ARGV[2]) then return 0 end
redis.call('HINCRBY', KEYS[1], 'held:' .. ARGV[1], ARGV[2])
redis.call('SADD', KEYS[2], ARGV[3])
return 1
`;

const settleScript = `
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
redis.call('HINCRBY', KEYS[1], 'held:' .. ARGV[1], -tonumber(ARGV[2]))
${spendableLua}
local charge = math.min(tonumber(ARGV[3]), math.max(0, spendable))
redis.call('HINCRBY', KEYS[1], 'pending:' .. ARGV[1], charge)
return charge
`;

// A newer stored balance (higher sequence) replaces `durable`; the node's written charge leaves `pending`.
const applyScript = `
local sequence = tonumber(redis.call('HGET', KEYS[1], 'sequence') or '-1')
if sequence < tonumber(ARGV[2]) then redis.call('HSET', KEYS[1], 'durable', ARGV[1], 'sequence', ARGV[2]) end
if tonumber(ARGV[4]) ~= 0 then redis.call('HINCRBY', KEYS[1], 'pending:' .. ARGV[3], -tonumber(ARGV[4])) end
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

  /** Takes `amount` from the user's spendable balance: `held`, `insufficient`, or `missing` when Redis has no copy yet. */
  async hold(userId: string, amount: number): Promise<'held' | 'insufficient' | 'missing'> {
    const result = Number(await this.redis.eval(holdScript, 2, walletKey(userId), nodeWalletsKey(this.nodeId), this.nodeId, String(amount), userId));
    return result === 1 ? 'held' : result === 0 ? 'insufficient' : 'missing';
  }

  /** Releases a hold and records the charge (capped at what is spendable) as unwritten; undefined when Redis lost the wallet. */
  async settle(userId: string, held: number, cost: number): Promise<number | undefined> {
    const result = Number(await this.redis.eval(settleScript, 1, walletKey(userId), this.nodeId, String(held), String(cost)));
    return result < 0 ? undefined : result;
  }

  /** Copies a stored balance into Redis if it is newer, and removes this node's now-written charge from `pending`. */
  async apply(stored: StoredBalance, writtenCharge = 0): Promise<void> {
    await this.redis.eval(applyScript, 1, walletKey(stored.userId), String(stored.balance), String(stored.sequence), this.nodeId, String(writtenCharge));
  }

  /** Applies many stored balances in one round trip. */
  async applyAll(balances: readonly StoredBalance[]): Promise<void> {
    if (balances.length === 0) return;
    const pipeline = this.redis.pipeline();
    for (const stored of balances) pipeline.eval(applyScript, 1, walletKey(stored.userId), String(stored.balance), String(stored.sequence), this.nodeId, '0');
    await pipeline.exec();
  }

  /** Marks this node alive; a node silent for 30 s is presumed dead and its holds are dropped by `removeDeadNodes`. */
  async beat(): Promise<void> {
    await this.redis.set(nodeKey(this.nodeId), '1', 'EX', heartbeatSeconds);
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
        for (const userId of userIds) await this.redis.hdel(walletKey(userId), `held:${nodeId}`, `pending:${nodeId}`);
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
    for (const userId of userIds) await this.redis.hdel(walletKey(userId), `held:${this.nodeId}`, `pending:${this.nodeId}`);
    await this.redis.del(key, nodeKey(this.nodeId));
  }
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
