import type { Redis } from 'ioredis';
import type { StoredBalance } from '../storage/billing-records.js';
import { nodeKey, walletKey, walletKeyPattern } from './redis-wallet-keys.js';

/** One way a user's wallet in Redis disagrees with the database or with the nodes alive. */
export interface WalletDriftEntry {
  userId: string;
  /** `durable`/`debt` (differs from the database at the same sequence) or `negative` (a field below zero) */
  problem: 'durable' | 'debt' | 'negative';
  /** the wallet field, e.g. `durable` or `held:node_…` */
  field: string;
  /** micro-units in Redis */
  redis: number;
  /** micro-units the database (or the rule) expects */
  expected: number;
}

/** What `findWalletDrift` found: the disagreements, and the money live nodes hold or have not written yet. */
export interface WalletDriftReport {
  wallets: number;
  drift: WalletDriftEntry[];
  /** micro-units held by requests in flight on live nodes, summed over every wallet (not drift) */
  liveHeld: number;
  /** micro-units live nodes have settled and not written yet (not drift) */
  livePending: number;
  /** micro-units still counted for nodes whose heartbeat stopped (a killed node): the next dead-node sweep removes them */
  deadNodeAmounts: number;
  /** wallets of users this database does not know (another database shares the Redis, or a deleted user): ignored */
  foreignWallets: number;
}

/**
 * Compares every wallet in Redis with the stored balances: the durable balance and debt must equal the database's
 * where the sequence is the same (a newer stored sequence is a copy not made yet, not drift), and no field may be below
 * zero. What live nodes hold or have not written is reported apart: it is money in flight, which reconciliation keeps
 * equal to each node's books; so is what dead nodes left, which the dead-node sweep removes (it only ever made the
 * spendable balance lower).
 */
export async function findWalletDrift(
  redis: Redis,
  readStoredBalances: (userIds: string[]) => Promise<StoredBalance[]>,
): Promise<WalletDriftReport> {
  const report: WalletDriftReport = {
    wallets: 0,
    drift: [],
    liveHeld: 0,
    livePending: 0,
    deadNodeAmounts: 0,
    foreignWallets: 0,
  };
  const aliveNodes = new Map<string, boolean>();
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', walletKeyPattern, 'COUNT', 200);
    cursor = next;
    if (keys.length === 0) continue;
    const userIds = keys.map((key) => key.slice(walletKey('').length));
    const stored = new Map((await readStoredBalances(userIds)).map((balance) => [balance.userId, balance]));
    for (const userId of userIds) {
      const fields = await redis.hgetall(walletKey(userId));
      if (Object.keys(fields).length === 0) continue;
      const balance = stored.get(userId);
      if (!balance) {
        report.foreignWallets += 1;
        continue;
      }
      report.wallets += 1;
      await checkWallet(userId, fields, balance);
    }
  } while (cursor !== '0');
  return report;

  async function checkWallet(userId: string, fields: Record<string, string>, stored: StoredBalance): Promise<void> {
    const value = (name: string) => Number(fields[name] ?? '0');
    if (value('sequence') === stored.sequence) {
      if (value('durable') !== stored.balance)
        report.drift.push({
          userId,
          problem: 'durable',
          field: 'durable',
          redis: value('durable'),
          expected: stored.balance,
        });
      if (value('debt') !== stored.debt)
        report.drift.push({ userId, problem: 'debt', field: 'debt', redis: value('debt'), expected: stored.debt });
    }
    for (const [field, text] of Object.entries(fields)) {
      const separator = field.indexOf(':');
      if (separator < 0) continue;
      const amount = Number(text);
      if (amount < 0) report.drift.push({ userId, problem: 'negative', field, redis: amount, expected: 0 });
      const nodeId = field.slice(separator + 1);
      let alive = aliveNodes.get(nodeId);
      if (alive === undefined) {
        alive = (await redis.exists(nodeKey(nodeId))) === 1;
        aliveNodes.set(nodeId, alive);
      }
      if (!alive) report.deadNodeAmounts += amount;
      else if (field.startsWith('held:')) report.liveHeld += amount;
      else if (field.startsWith('pending:')) report.livePending += amount;
    }
  }
}
