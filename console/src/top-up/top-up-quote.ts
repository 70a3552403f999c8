// What a top-up costs and credits, computed exactly as the gateway does (src/accounts/payments/quote-topup.ts):
// integers only, the charge rounded up to the next minor unit, the credit what that charge buys, rounded down.
import { microUnitsPerUnit } from '../format/format-micro-units';
import { parseAmountToMicroUnits } from '../format/parse-amount';
import type { TopUpBonusRule, TopUpMethodOption } from './top-up-types';

/** What the payer pays and receives. */
export interface TopUpQuote {
  /** what is charged, in the currency's minor unit */
  amountPaidMinor: number;
  /** micro-units credited (never less than asked) */
  creditMicroUnits: number;
  /** micro-units of first-top-up bonus (0 when the caller no longer qualifies) */
  bonusMicroUnits: number;
}

/** The bonus rule in integers. */
export interface BonusRuleInUnits {
  /** millionths of a percent (10% = 10,000,000) */
  percentMillionths: number;
  fixedMicroUnits: number;
  /** 0 means no cap */
  capMicroUnits: number;
}

// ISO 4217 currencies charged without decimals (the gateway's list); every other has two.
const zeroDecimalCurrencies = new Set(['bif', 'clp', 'djf', 'gnf', 'jpy', 'kmf', 'krw', 'mga', 'pyg', 'rwf', 'ugx', 'vnd', 'vuv', 'xaf', 'xof', 'xpf']);

/** Minor units in one unit of the currency (100 cents in a dollar, 1 for yen). */
export function minorUnitsPerCurrencyUnit(currency: string): number {
  return zeroDecimalCurrencies.has(currency.toLowerCase()) ? 1 : 100;
}

/** Converts a requested credit into the charge and the exact credit, like the gateway's quoteTopup. */
export function quoteCharge(requestedMicroUnits: number, rate: { microUnitsPerCurrencyUnit: number; currency: string }): { amountPaidMinor: number; creditMicroUnits: number } {
  const minorPerUnit = BigInt(minorUnitsPerCurrencyUnit(rate.currency));
  const microPerUnit = BigInt(rate.microUnitsPerCurrencyUnit);
  const requested = BigInt(requestedMicroUnits);
  const amountPaidMinor = (requested * minorPerUnit + microPerUnit - 1n) / microPerUnit;
  const creditMicroUnits = (amountPaidMinor * microPerUnit) / minorPerUnit;
  return { amountPaidMinor: Number(amountPaidMinor), creditMicroUnits: Number(creditMicroUnits) };
}

/** The first-top-up bonus: percent of the credit (rounded down) plus the fixed part, at most the cap (0 = none). */
export function computeBonus(creditMicroUnits: number, rule: BonusRuleInUnits): number {
  const percentPart = (BigInt(creditMicroUnits) * BigInt(rule.percentMillionths)) / BigInt(100 * microUnitsPerUnit);
  const bonus = Number(percentPart) + rule.fixedMicroUnits;
  return rule.capMicroUnits > 0 ? Math.min(bonus, rule.capMicroUnits) : bonus;
}

/** Reads the options' decimal-string bonus rule into integers (an unreadable part counts as 0). */
export function bonusRuleInUnits(rule: TopUpBonusRule): BonusRuleInUnits {
  return {
    percentMillionths: parseAmountToMicroUnits(rule.percent) ?? 0,
    fixedMicroUnits: parseAmountToMicroUnits(rule.fixed) ?? 0,
    capMicroUnits: rule.cap === null ? 0 : (parseAmountToMicroUnits(rule.cap) ?? 0),
  };
}

/** The full quote for an amount and method: charge, credit and the bonus when the caller still qualifies; null for an unreadable rate. */
export function quoteTopUp(requestedMicroUnits: number, method: TopUpMethodOption, bonus: TopUpBonusRule): TopUpQuote | null {
  const microUnitsPerCurrencyUnit = parseAmountToMicroUnits(method.unitsPerCurrencyUnit);
  if (microUnitsPerCurrencyUnit === null || microUnitsPerCurrencyUnit === 0) return null;
  const charge = quoteCharge(requestedMicroUnits, { microUnitsPerCurrencyUnit, currency: method.currency });
  return { ...charge, bonusMicroUnits: bonus.eligible ? computeBonus(charge.creditMicroUnits, bonusRuleInUnits(bonus)) : 0 };
}

/** Formats minor units as the currency's decimal string, e.g. 7143 fen → `71.43`, 500 yen → `500`. */
export function formatMinorUnits(amountMinor: number, currency: string): string {
  if (minorUnitsPerCurrencyUnit(currency) === 1) return String(amountMinor);
  return `${Math.floor(amountMinor / 100)}.${String(amountMinor % 100).padStart(2, '0')}`;
}
