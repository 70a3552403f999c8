/**
 * Official chat fields that make the vendor bill more than the model's token price, or run another model, when set
 * to these values: a premium service tier, audio output (no audio price is modelled), web search, predicted outputs
 * (rejected prediction tokens are billed) and moderation (runs a moderation model). Keyed by field; the test says
 * whether the value is a premium one (`service_tier: "auto"` is not).
 */
export const premiumChatFields: Readonly<Record<string, (value: unknown) => boolean>> = {
  service_tier: (value) => isSet(value) && value !== 'auto' && value !== 'default',
  audio: isSet,
  modalities: (value) => Array.isArray(value) && value.includes('audio'),
  web_search_options: isSet,
  prediction: isSet,
  moderation: isSet,
};

/** The first premium field the request sets, if any. */
export function findPremiumChatField(request: Readonly<Record<string, unknown>>): string | undefined {
  for (const [field, isPremium] of Object.entries(premiumChatFields)) {
    if (isPremium(request[field])) return field;
  }
  return undefined;
}

function isSet(value: unknown): boolean {
  return value !== undefined && value !== null;
}
