import type { TokenUsage } from '../../core/token-usage.js';

interface OpenAiUsageFields {
  prompt_tokens?: unknown;
  completion_tokens?: unknown;
  total_tokens?: unknown;
  input_tokens?: unknown;
  output_tokens?: unknown;
  /** OpenRouter adds `cache_write_tokens` (part of prompt_tokens) next to OpenAI's `cached_tokens` */
  prompt_tokens_details?: { cached_tokens?: unknown; cache_write_tokens?: unknown } | null;
  /** the `input_tokens` naming (Responses, images) puts cache reads here */
  input_tokens_details?: { cached_tokens?: unknown } | null;
  completion_tokens_details?: { reasoning_tokens?: unknown } | null;
  /** DeepSeek reports its cache reads here instead of prompt_tokens_details */
  prompt_cache_hit_tokens?: unknown;
}

/**
 * Reads an OpenAI `usage` object (chat, completions, embeddings or images) into token counts, with the cache
 * reads and writes of OpenAI-wire vendors that name them differently (DeepSeek, OpenRouter).
 */
export function parseOpenAiUsage(value: unknown): TokenUsage | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const usage = value as OpenAiUsageFields;
  const promptTokens = toCount(usage.prompt_tokens ?? usage.input_tokens);
  const completionTokens = toCount(usage.completion_tokens ?? usage.output_tokens);
  const cachedPromptTokens =
    toCount(usage.prompt_tokens_details?.cached_tokens) ||
    toCount(usage.input_tokens_details?.cached_tokens) ||
    toCount(usage.prompt_cache_hit_tokens);
  const cacheWritePromptTokens = toCount(usage.prompt_tokens_details?.cache_write_tokens);
  return {
    promptTokens,
    completionTokens,
    totalTokens: toCount(usage.total_tokens) || promptTokens + completionTokens,
    cachedPromptTokens,
    reasoningTokens: toCount(usage.completion_tokens_details?.reasoning_tokens),
    ...(cacheWritePromptTokens > 0 ? { cacheWritePromptTokens } : {}),
  };
}

/**
 * Finds the usage object in a JSON response without parsing the whole body: embedding responses can be
 * megabytes of vectors while `usage` is a few bytes at the end. Falls back to a full parse.
 */
export function extractUsageFromJsonText(text: string): TokenUsage | undefined {
  return parseOpenAiUsage(findUsageObject(text));
}

/** The last `"usage": {...}` object of a JSON text (or of the JSON events of a stream), parsed; undefined when there is none. */
export function findUsageObject(text: string): unknown {
  const keyIndex = text.lastIndexOf('"usage"');
  if (keyIndex === -1) return undefined;
  const openIndex = text.indexOf('{', keyIndex);
  if (openIndex !== -1) {
    let depth = 0;
    for (let index = openIndex; index < text.length; index++) {
      const character = text.charCodeAt(index);
      if (character === 123 /* { */) depth++;
      else if (character === 125 /* } */ && --depth === 0) {
        try {
          return JSON.parse(text.slice(openIndex, index + 1)) as unknown;
        } catch {
          break;
        }
      }
    }
  }
  try {
    return (JSON.parse(text) as { usage?: unknown }).usage;
  } catch {
    return undefined;
  }
}

function toCount(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value) : 0;
}
