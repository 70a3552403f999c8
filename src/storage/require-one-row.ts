/** Throws `No <what> exists` when a write or read touched no row (an id that names nothing). */
export function requireOneRow(affectedRows: bigint | undefined, what: string): void {
  if (affectedRows === undefined || affectedRows === 0n) {
    throw new Error(`No ${what} exists`);
  }
}
