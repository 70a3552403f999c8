import { parseAmountToMicroUnits } from '../../format/parse-amount';
import type { CatalogFields, CatalogModelKind } from './groups-types';
import { microUnitsToDecimal } from './price-form-values';

/** What the catalog entry form holds, as typed. */
export interface CatalogFormValues {
  modelId: string;
  ownedBy: string;
  kind: CatalogModelKind | '';
  contextWindow: string;
  maxOutputTokens: string;
  input: string;
  output: string;
}

/** The form's fields that can be wrong. */
export type CatalogFormField = 'modelId' | 'contextWindow' | 'maxOutputTokens' | 'input' | 'output';

/** The form's values for an entry (empty for a new one). */
export function catalogFormValuesOf(modelId: string, fields: CatalogFields): CatalogFormValues {
  return {
    modelId,
    ownedBy: fields.ownedBy ?? '',
    kind: fields.kind ?? '',
    contextWindow: fields.contextWindow === undefined ? '' : String(fields.contextWindow),
    maxOutputTokens: fields.maxOutputTokens === undefined ? '' : String(fields.maxOutputTokens),
    input: fields.defaultPrices ? microUnitsToDecimal(fields.defaultPrices.inputPerMillion) : '',
    output: fields.defaultPrices ? microUnitsToDecimal(fields.defaultPrices.outputPerMillion) : '',
  };
}

const positiveInteger = /^[1-9]\d{0,11}$/;

/**
 * Reads the form into the body of PUT /api/catalog/:modelId: the stored entry's other fields are kept, emptied
 * fields are dropped, token counts are positive integers and the default prices (both or neither) are micro-units.
 */
export function readCatalogForm(values: CatalogFormValues, stored: CatalogFields = {}): { fields: CatalogFields } | { errors: Partial<Record<CatalogFormField, true>> } {
  const errors: Partial<Record<CatalogFormField, true>> = {};
  const { ownedBy: _ownedBy, kind: _kind, contextWindow: _contextWindow, maxOutputTokens: _maxOutputTokens, defaultPrices, ...kept } = stored;
  const fields: CatalogFields = { ...kept };
  if (values.modelId.trim() === '') errors.modelId = true;
  if (values.ownedBy.trim() !== '') fields.ownedBy = values.ownedBy.trim();
  if (values.kind !== '') fields.kind = values.kind;
  for (const name of ['contextWindow', 'maxOutputTokens'] as const) {
    const text = values[name].trim();
    if (text === '') continue;
    if (positiveInteger.test(text)) fields[name] = Number(text);
    else errors[name] = true;
  }
  const input = values.input.trim();
  const output = values.output.trim();
  if (input !== '' || output !== '') {
    const inputPerMillion = parseAmountToMicroUnits(input);
    const outputPerMillion = parseAmountToMicroUnits(output);
    if (inputPerMillion === null) errors.input = true;
    if (outputPerMillion === null) errors.output = true;
    if (inputPerMillion !== null && outputPerMillion !== null) {
      const { inputPerMillion: _input, outputPerMillion: _output, ...otherPrices } = defaultPrices ?? {};
      fields.defaultPrices = { ...otherPrices, inputPerMillion, outputPerMillion };
    }
  }
  return Object.keys(errors).length > 0 ? { errors } : { fields };
}
