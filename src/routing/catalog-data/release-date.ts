/** A vendor release date (`YYYY-MM-DD`, UTC midnight) as Unix seconds, the catalog's `created`. */
export function releaseDate(isoDate: string): number {
  const time = Date.parse(`${isoDate}T00:00:00Z`);
  if (Number.isNaN(time)) throw new Error(`Invalid release date '${isoDate}'.`);
  return time / 1000;
}
