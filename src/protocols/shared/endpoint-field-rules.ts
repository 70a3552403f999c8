/** Whether a field's value makes the vendor bill differently from the model's price (a premium tier, a tool, another model). */
export type PremiumValueTest = (value: unknown) => boolean;

/**
 * What one endpoint may forward, defined next to its schema so the allow-list and the validation come from one
 * place: the fields of the official API description (each validated by the schema), the ones among them that change
 * the price, and the ones forwarded only on the operator's opt-in.
 */
export interface EndpointFieldRules {
  /** every field the official API description defines for the endpoint; anything else is a vendor extra or refused */
  officialFields: ReadonlySet<string>;
  /** official fields that change the price or the model for some values: refused unless the serving channel enables them */
  premiumFields: Readonly<Record<string, PremiumValueTest>>;
  /** official fields forwarded only to channels whose operator opted in (`forwardStoreAndMetadata`) */
  optInFields: readonly string[];
  /** true where vendor presets' extra fields (`top_k`, OpenRouter's `models`, ...) may apply: the text-generation endpoints */
  acceptsVendorExtras: boolean;
}

/** The field names of a zod object shape, as the set an allow-list checks against. */
export function fieldNamesOf(
  shape: Readonly<Record<string, unknown>>,
  ...more: readonly string[]
): ReadonlySet<string> {
  return new Set([...Object.keys(shape), ...more]);
}
