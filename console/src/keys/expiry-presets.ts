/** The expiry choices offered when creating a key, in days; `never` keeps the key until it is deleted. */
export const expiryPresetDays = [7, 30, 90, 365] as const;

/** One expiry choice: `never` or a number of days as a string (what a select holds). */
export type ExpiryChoice = 'never' | `${(typeof expiryPresetDays)[number]}`;

/** The key's `expiresAt` (Unix milliseconds) for a choice made at `now`, or null for never. */
export function expiresAtFor(choice: ExpiryChoice, now: number): number | null {
  if (choice === 'never') return null;
  return now + Number(choice) * 24 * 60 * 60 * 1000;
}
