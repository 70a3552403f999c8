import { microUnitsPerUnit } from '../../format/format-micro-units';
import { parseAmountToMicroUnits } from '../../format/parse-amount';

/** What the price form holds: decimal strings of currency units per million tokens. */
export interface PriceFormValues {
  input: string;
  output: string;
  cachedInput: string;
  cacheWrite: string;
  /** 1-hour cache writes (Anthropic `ttl: "1h"`); empty: twice the input price */
  cacheWriteOneHour?: string;
}

/** The body of PUT /api/prices/:modelId: integer micro-units per million tokens. */
export interface PriceOverrideBody {
  inputPerMillion: number;
  outputPerMillion: number;
  cachedInputPerMillion?: number;
  cacheWritePerMillion?: number;
  cacheWriteOneHourPerMillion?: number;
}

/** Which price fields did not parse as amounts. */
export type PriceFormErrors = Partial<Record<keyof PriceFormValues, true>>;

/** Shows micro-units as the decimal a person edits (integer arithmetic): 2_500_000 → "2.5", 0 → "0". */
export function microUnitsToDecimal(amount: number): string {
  const whole = Math.floor(amount / microUnitsPerUnit);
  const fraction = String(amount % microUnitsPerUnit).padStart(6, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : String(whole);
}

/**
 * Reads the price form into the PUT body exactly (no floats): input and output are required; the cached and
 * cache-write prices are sent only when filled in (the gateway then uses the input price; for 1-hour writes twice it).
 */
export function readPriceForm(values: PriceFormValues): { body: PriceOverrideBody } | { errors: PriceFormErrors } {
  const errors: PriceFormErrors = {};
  const read = (field: keyof PriceFormValues, required: boolean): number | undefined => {
    const value = values[field] ?? '';
    if (!required && value.trim() === '') return undefined;
    const parsed = parseAmountToMicroUnits(value);
    if (parsed === null) errors[field] = true;
    return parsed ?? undefined;
  };
  const inputPerMillion = read('input', true);
  const outputPerMillion = read('output', true);
  const cachedInputPerMillion = read('cachedInput', false);
  const cacheWritePerMillion = read('cacheWrite', false);
  const cacheWriteOneHourPerMillion = read('cacheWriteOneHour', false);
  if (Object.keys(errors).length > 0 || inputPerMillion === undefined || outputPerMillion === undefined) return { errors };
  return {
    body: {
      inputPerMillion,
      outputPerMillion,
      ...(cachedInputPerMillion === undefined ? {} : { cachedInputPerMillion }),
      ...(cacheWritePerMillion === undefined ? {} : { cacheWritePerMillion }),
      ...(cacheWriteOneHourPerMillion === undefined ? {} : { cacheWriteOneHourPerMillion }),
    },
  };
}
