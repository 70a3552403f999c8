import type { ApiBalance } from '../api/api-types';

/** Below this many days of runway the dashboard warns. */
export const lowRunwayDays = 3;
/** Beyond this many days the dashboard says "more than a year" instead of a number. */
export const longestShownRunwayDays = 365;

/** How long the balance lasts and whether the dashboard should warn. */
export interface BalanceOutlook {
  /** whole days the available balance lasts at the 7-day average spend; null when nothing was spent in 7 days */
  runwayDays: number | null;
  /** true when the runway is under 3 days, nothing is available, or there is debt */
  low: boolean;
}

/** The runway of `balance` at the average daily spend of the last 7 days (`sevenDaySpend`, micro-units). */
export function balanceOutlook(balance: ApiBalance, sevenDaySpend: number): BalanceOutlook {
  // available ÷ (spend ÷ 7) in integers: no float rounding pushes a runway over a whole day.
  const runwayDays = sevenDaySpend > 0 ? Math.floor((Math.max(balance.available, 0) * 7) / sevenDaySpend) : null;
  const low = balance.available <= 0 || balance.debt > 0 || (runwayDays !== null && runwayDays < lowRunwayDays);
  return { runwayDays, low };
}
