import { responsesRequestFields } from './responses-request-schema.js';

/**
 * The top-level fields a Responses pass-through forwards to an OpenAI channel: every field the gateway validates, plus
 * a few that change neither the price nor the model (`stream_options`, prompt-cache and abuse-tracking ids,
 * `top_logprobs`). Anything else (`service_tier`, which changes the price, `moderation`, `context_management`, ...) is
 * dropped, as the chat forwarded-field policy does for fields it does not price.
 */
export const responsesPassThroughFields: ReadonlySet<string> = new Set([
  ...Object.keys(responsesRequestFields),
  'stream_options',
  'prompt_cache_key',
  'prompt_cache_retention',
  'safety_identifier',
  'user',
  'top_logprobs',
]);

/** The body with only the forwarded fields. */
export function pickPassThroughFields(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([field]) => responsesPassThroughFields.has(field)));
}
