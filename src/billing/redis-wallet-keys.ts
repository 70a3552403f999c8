/** The Redis key of a user's wallet hash (`durable`, `debt`, `sequence`, and per node `held:`, `pending:`, `debt:`). */
export function walletKey(userId: string): string {
  return `gateway:wallet:${userId}`;
}

/** The pattern that matches every wallet key, for scans. */
export const walletKeyPattern = 'gateway:wallet:*';

/** The Redis key of the set of users a node has fields for in their wallets. */
export function nodeWalletsKey(nodeId: string): string {
  return `gateway:node-wallets:${nodeId}`;
}

/** The Redis key of a node's heartbeat (it expires when the node stops beating). */
export function nodeKey(nodeId: string): string {
  return `gateway:node:${nodeId}`;
}

/** The Redis key whose random value names Redis's current wallet data; an empty Redis gets a new one. */
export const walletEpochKey = 'gateway:wallet-epoch';

/** The Redis key of an API key's spend hash (`spent`, and per node `held:` and `pending:`), checked against its cap. */
export function keySpendKey(apiKeyId: string): string {
  return `gateway:key-spend:${apiKeyId}`;
}
