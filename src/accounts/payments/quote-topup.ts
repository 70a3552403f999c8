import { microUnitsPerCurrencyUnit } from '../../billing/money.js';
import type { TopupBonusRule } from './payment-config.js';

/** What a top-up costs and credits. */
export interface TopupQuote {
  /** what the payer pays, in the currency's minor unit */
  amountPaidMinor: number;
  /** micro-units credited: exactly what the paid amount buys at the rate (never less than asked) */
  creditMicroUnits: number;
}

// ISO 4217 currencies Stripe charges without decimals; every other supported currency has two.
const zeroDecimalCurrencies = new Set([
  'bif',
  'clp',
  'djf',
  'gnf',
  'jpy',
  'kmf',
  'krw',
  'mga',
  'pyg',
  'rwf',
  'ugx',
  'vnd',
  'vuv',
  'xaf',
  'xof',
  'xpf',
]);

/** Minor units in one unit of the currency (100 cents in a dollar, 1 for yen). */
export function minorUnitsPerCurrencyUnit(currency: string): number {
  return zeroDecimalCurrencies.has(currency.toLowerCase()) ? 1 : 100;
}

/**
 * Converts a requested credit into what to charge, exactly in integers: the charge rounds up to the next minor unit,
 * and the credit is what that charge buys (rounded down to the micro-unit), so the payer never gets less than asked.
 */
export function quoteTopup(
  requestedMicroUnits: number,
  rate: { microUnitsPerCurrencyUnit: number; currency: string },
): TopupQuote {
  const minorPerUnit = BigInt(minorUnitsPerCurrencyUnit(rate.currency));
  const microPerUnit = BigInt(rate.microUnitsPerCurrencyUnit);
  const requested = BigInt(requestedMicroUnits);
  const amountPaidMinor = (requested * minorPerUnit + microPerUnit - 1n) / microPerUnit;
  const creditMicroUnits = (amountPaidMinor * microPerUnit) / minorPerUnit;
  return { amountPaidMinor: Number(amountPaidMinor), creditMicroUnits: Number(creditMicroUnits) };
}

/** The first-top-up bonus for a credit: percent of it (rounded down) plus the fixed part, at most the cap (0 = none). */
export function computeTopupBonus(creditMicroUnits: number, rule: TopupBonusRule): number {
  const percentPart =
    (BigInt(creditMicroUnits) * BigInt(rule.percentMillionths)) / BigInt(100 * microUnitsPerCurrencyUnit);
  const bonus = Number(percentPart) + rule.fixedMicroUnits;
  return rule.capMicroUnits > 0 ? Math.min(bonus, rule.capMicroUnits) : bonus;
}

/** Formats minor units as the provider's decimal string, e.g. 1000 fen -> `10.00`. */
export function formatMinorUnits(amountMinor: number, currency: string): string {
  const perUnit = minorUnitsPerCurrencyUnit(currency);
  if (perUnit === 1) return String(amountMinor);
  return `${Math.floor(amountMinor / 100)}.${String(amountMinor % 100).padStart(2, '0')}`;
}

/** Parses a provider's two-decimal amount such as `10.00` into minor units; undefined when it is not one. */
export function parseMinorUnits(text: string): number | undefined {
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return undefined;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}
