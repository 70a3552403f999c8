import type { ApiKey } from '../api/api-types';
import { parseAmountToMicroUnits } from '../format/parse-amount';
import { microUnitsPerUnit } from '../format/format-micro-units';
import { expiresAtFor, type ExpiryChoice } from './expiry-presets';

/** The expiry choices when editing: keep the current one, a preset (or never), or a date. */
export type EditExpiryChoice = 'keep' | ExpiryChoice | 'date';

/** What the edit form holds, as typed. */
export interface EditKeyValues {
  name: string;
  expiry: EditExpiryChoice;
  /** YYYY-MM-DD, used when `expiry` is `date`: the key works until the end of that day (local time) */
  expiryDate: string;
  /** a decimal amount, or empty for no cap */
  spendingCap: string;
  /** addresses or CIDR ranges separated by commas, spaces or new lines; empty for any address */
  allowedIps: string;
}

/** Why a field cannot be sent, as catalog keys under `keys.edit`. */
export interface EditKeyErrors {
  name?: 'nameTooLong';
  expiryDate?: 'dateRequired' | 'dateInPast';
  spendingCap?: 'spendingCapInvalid';
}

/** The PATCH /api/keys/:id body. */
export interface EditKeyRequest {
  name: string;
  expiresAt?: number | null;
  spendingCap: number | null;
  allowedIps: string[];
}

/** The form's starting values for `key`: its name, cap and addresses; its expiry kept (or never). */
export function initialEditValues(key: ApiKey): EditKeyValues {
  return {
    name: key.name,
    expiry: key.expiresAt === null ? 'never' : 'keep',
    expiryDate: '',
    spendingCap: key.spendingCap === null ? '' : formatAmountForInput(key.spendingCap),
    allowedIps: key.allowedIps.join('\n'),
  };
}

/** Micro-units as a plain decimal an input holds and parseAmountToMicroUnits reads back: 2_500_000 → "2.5". */
export function formatAmountForInput(amount: number): string {
  const whole = Math.floor(amount / microUnitsPerUnit);
  const fraction = String(amount % microUnitsPerUnit).padStart(6, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : String(whole);
}

/** The addresses typed, split on commas, spaces and new lines. */
export function parseAllowedIps(text: string): string[] {
  return text.split(/[\s,]+/).filter((address) => address.length > 0);
}

/** The end (last millisecond, local time) of the day `date` (YYYY-MM-DD), or null when it is not a date. */
export function endOfLocalDay(date: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return null;
  return new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]), 23, 59, 59, 999).getTime();
}

/** The fields that cannot be sent as they are; empty when the form is fine. */
export function validateEditValues(values: EditKeyValues, now: number): EditKeyErrors {
  const errors: EditKeyErrors = {};
  if (values.name.trim().length > 100) errors.name = 'nameTooLong';
  if (values.expiry === 'date') {
    const end = endOfLocalDay(values.expiryDate);
    if (end === null) errors.expiryDate = 'dateRequired';
    else if (end <= now) errors.expiryDate = 'dateInPast';
  }
  if (values.spendingCap.trim() !== '' && parseAmountToMicroUnits(values.spendingCap) === null) errors.spendingCap = 'spendingCapInvalid';
  return errors;
}

/** The PATCH body for valid `values` at `now` (expiry left out when kept); null when a field is invalid. */
export function editKeyRequest(values: EditKeyValues, now: number): EditKeyRequest | null {
  if (Object.keys(validateEditValues(values, now)).length > 0) return null;
  const request: EditKeyRequest = {
    name: values.name.trim() || 'default',
    spendingCap: values.spendingCap.trim() === '' ? null : parseAmountToMicroUnits(values.spendingCap),
    allowedIps: parseAllowedIps(values.allowedIps),
  };
  switch (values.expiry) {
    case 'keep':
      break;
    case 'date':
      request.expiresAt = endOfLocalDay(values.expiryDate);
      break;
    case 'never':
    case '7':
    case '30':
    case '90':
    case '365':
      request.expiresAt = expiresAtFor(values.expiry, now);
      break;
    default: {
      const unreachable: never = values.expiry;
      throw new Error(`unknown expiry ${String(unreachable)}`);
    }
  }
  return request;
}
