/** Where the check value of the database's secret key is kept (migration 0021). */
export interface SecretKeyCheckStore {
  /** the stored check value, or undefined before any node recorded one */
  read(): Promise<string | undefined>;
  /**
   * Records `checkValue` (at `now`, Unix ms) unless a value is stored already, and returns the stored one: the first
   * node's value wins when two nodes start at once.
   */
  recordIfAbsent(checkValue: string, now: number): Promise<string>;
  /** Replaces `from` with `to` (a rekey onto a new key) and says whether it did; another stored value is kept. */
  replace(from: string, to: string, now: number): Promise<boolean>;
}
