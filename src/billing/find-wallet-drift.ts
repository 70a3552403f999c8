import type { Redis } from 'ioredis';
import type { StoredBalance } from '../storage/billing-records.js';
import { nodeKey, walletKey, walletKeyPattern } from './redis-wallet-keys.js';

/** One way a user's wallet in Redis disagrees with the database or with the nodes alive. */
export interface WalletDriftEntry {
  userId: string;
  /** `durable`/`debt` (differs from the database at the same sequence), `negative` (a field below zero), `dead-node`
   * (a field of a node whose heartbeat stopped), `unknown-user` (no such user in the database) */
  problem: 'durable' | 'debt' | 'negative' | 'dead-node' | 'unknown-user';
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
}

/**
 * Compares every wallet in Redis with the stored balances: the durable balance and debt must equal the database's
 * where the sequence is the same (a newer stored sequence is a copy not made yet, not drift), no field may be below
 * zero, and no field may belong to a node without a heartbeat. What live nodes hold or have not written is reported
 * apart: it is money in flight, which reconciliation keeps equal to each node's books.
 */
export async function findWalletDrift(
  redis: Redis,
  readStoredBalances: (userIds: string[]) => Promise<StoredBalance[]>,
): Promise<WalletDriftReport> {
  const report: WalletDriftReport = { wallets: 0, drift: [], liveHeld: 0, livePending: 0 };
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
      report.wallets += 1;
      await checkWallet(userId, fields, stored.get(userId));
    }
  } while (cursor !== '0');
  return report;

  async function checkWallet(
    userId: string,
    fields: Record<string, string>,
    stored: StoredBalance | undefined,
  ): Promise<void> {
    const value = (name: string) => Number(fields[name] ?? '0');
    if (!stored) {
      report.drift.push({ userId, problem: 'unknown-user', field: 'durable', redis: value('durable'), expected: 0 });
      return;
    }
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
      if (!alive) report.drift.push({ userId, problem: 'dead-node', field, redis: amount, expected: 0 });
      else if (field.startsWith('held:')) report.liveHeld += amount;
      else if (field.startsWith('pending:')) report.livePending += amount;
    }
  }
}
