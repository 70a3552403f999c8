// What some of OpenAI's real models refuse: an output cap above theirs, a reasoning effort for a model that does not
// reason. Other model names (the sim-* behaviours, names of tests) accept both, as before.
import { invalidRequest } from './openai-simulator-errors.js';
import type { RequestBody } from './openai-simulator-validation.js';

/** One known model's limits, as OpenAI enforces them. */
interface SimulatedModelLimits {
  /** the most completion tokens a request may ask for */
  maxOutputTokens: number;
  /** true when the model takes `reasoning_effort` */
  reasoning: boolean;
}

const knownModels: Readonly<Record<string, SimulatedModelLimits>> = {
  'gpt-4o': { maxOutputTokens: 16_384, reasoning: false },
  'gpt-4o-mini': { maxOutputTokens: 16_384, reasoning: false },
  'gpt-4.1': { maxOutputTokens: 32_768, reasoning: false },
  'gpt-4.1-mini': { maxOutputTokens: 32_768, reasoning: false },
  o3: { maxOutputTokens: 100_000, reasoning: true },
  'o4-mini': { maxOutputTokens: 100_000, reasoning: true },
  'gpt-5': { maxOutputTokens: 128_000, reasoning: true },
  'gpt-5-mini': { maxOutputTokens: 128_000, reasoning: true },
};

/** Throws OpenAI's 400 when a chat request asks a known model for more output than it has, or for reasoning it lacks. */
export function checkChatModelLimits(body: RequestBody): void {
  const limits = typeof body.model === 'string' ? knownModels[body.model] : undefined;
  if (!limits) return;
  for (const field of ['max_completion_tokens', 'max_tokens']) {
    const requested = body[field];
    if (typeof requested === 'number' && requested > limits.maxOutputTokens) {
      throw invalidRequest(
        `${field} is too large: ${requested}. This model supports at most ${limits.maxOutputTokens} completion tokens, whereas you provided ${requested}.`,
        field,
        'invalid_value',
      );
    }
  }
  if (!limits.reasoning && body.reasoning_effort !== undefined) {
    throw invalidRequest(
      "Unsupported parameter: 'reasoning_effort' is not supported with this model.",
      'reasoning_effort',
      'unsupported_parameter',
    );
  }
}
