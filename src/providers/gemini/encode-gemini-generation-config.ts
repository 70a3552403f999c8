import type { CanonicalRequest } from '../../core/canonical/canonical-request.js';
import { encodeGeminiThinkingConfig } from './encode-gemini-thinking-config.js';

/**
 * Canonical sampling and output settings as Gemini's `generationConfig`: temperature, topP, topK, max output tokens,
 * stop sequences, seed, penalties, and the output format (JSON object → JSON MIME type; JSON schema → plus
 * `responseJsonSchema`), and the reasoning effort as `thinkingConfig` for the model `modelId` (the vendor's name).
 */
export function encodeGeminiGenerationConfig(
  request: CanonicalRequest,
  modelId: string,
): Record<string, unknown> | undefined {
  const { sampling } = request;
  const config: Record<string, unknown> = {};
  setIfPresent(config, 'temperature', sampling.temperature);
  setIfPresent(config, 'topP', sampling.topP);
  setIfPresent(config, 'topK', sampling.topK);
  setIfPresent(config, 'maxOutputTokens', request.maxOutputTokens);
  setIfPresent(config, 'seed', sampling.seed);
  setIfPresent(config, 'presencePenalty', sampling.presencePenalty);
  setIfPresent(config, 'frequencyPenalty', sampling.frequencyPenalty);
  if (sampling.stopSequences?.length) config.stopSequences = sampling.stopSequences;
  const format = request.outputFormat;
  if (format.type === 'json-object') config.responseMimeType = 'application/json';
  if (format.type === 'json-schema') {
    config.responseMimeType = 'application/json';
    config.responseJsonSchema = format.schema;
  }
  const thinkingConfig = encodeGeminiThinkingConfig(request.reasoningEffort, modelId, request.thinkingBudgetTokens);
  if (thinkingConfig) config.thinkingConfig = thinkingConfig;
  return Object.keys(config).length > 0 ? config : undefined;
}

function setIfPresent(config: Record<string, unknown>, field: string, value: number | null | undefined): void {
  if (value !== null && value !== undefined) config[field] = value;
}
