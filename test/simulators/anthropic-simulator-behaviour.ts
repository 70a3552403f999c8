// The model names that make a vendor simulator (Anthropic, Gemini) misbehave on purpose, on top of the OpenAI simulator's.
import { behaviourForModel, type ModelBehaviour } from './openai-simulator-behaviour.js';

/** What a translated-vendor simulator does for a request, chosen by the model name. */
export type VendorModelBehaviour =
  | ModelBehaviour
  /** status 200, two content events, then the vendor's own mid-stream error event (`sim-stream-error-event`) */
  | { kind: 'stream-error-event' }
  /** status 200 and headers, then a destroyed socket before any event (`sim-broken-before-first-event`) */
  | { kind: 'broken-before-first-event' };

/** Reads the behaviour out of a model name; anything unknown is normal. */
export function vendorBehaviourForModel(model: unknown): VendorModelBehaviour {
  if (model === 'sim-stream-error-event') return { kind: 'stream-error-event' };
  if (model === 'sim-broken-before-first-event') return { kind: 'broken-before-first-event' };
  return behaviourForModel(model);
}

/** How many content events a broken or failing stream sends before it breaks. */
export const contentEventsBeforeBreak = 2;
