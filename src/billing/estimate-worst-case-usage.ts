import type { CanonicalRequest } from '../core/canonical/canonical-request.js';
import type { MeteredRequest } from './request-accounting.js';
import type { BillableUsage } from './billable-usage.js';
import { emptyBillableUsage } from './billable-usage.js';
import { estimateCanonicalInputTokens } from './estimate-canonical-input-tokens.js';
import { estimateInputTokens } from './estimate-input-tokens.js';
import { estimateTranscriptionUsage } from './estimate-transcription-usage.js';

/** Output tokens reserved when neither the request nor the catalog gives a cap. */
export const defaultMaxOutputTokens = 4_096;

/** The most a request can consume: its counted input plus its whole output allowance. */
export interface WorstCaseEstimate {
  usage: BillableUsage;
  /** input tokens counted from the request */
  inputTokens: number;
}

/** The worst-case usage of a request before it is sent: what accounting holds against the balance. */
export function estimateWorstCaseUsage(
  request: MeteredRequest,
  fallbackMaxOutputTokens: number = defaultMaxOutputTokens,
): WorstCaseEstimate {
  const { body, endpoint, model } = request;
  const inputTokens = request.canonicalRequest
    ? estimateCanonicalInputTokens(request.canonicalRequest, request.documentPages)
    : estimateInputTokens(endpoint, body, request.documentPages);
  const choices = positiveInteger(body.n) ?? 1;
  switch (endpoint) {
    case 'chat.completions':
    case 'completions': {
      const outputCap =
        positiveInteger(body.max_completion_tokens) ??
        positiveInteger(body.max_tokens) ??
        model.maxOutputTokens ??
        fallbackMaxOutputTokens;
      const generations = endpoint === 'completions' ? countLegacyGenerations(body, choices) : choices;
      return {
        inputTokens,
        usage: { ...emptyBillableUsage, promptTokens: inputTokens, completionTokens: outputCap * generations },
      };
    }
    case 'responses':
    case 'messages': {
      const canonical = requireCanonicalRequest(request);
      const outputCap = canonical.maxOutputTokens ?? model.maxOutputTokens ?? fallbackMaxOutputTokens;
      return {
        inputTokens,
        usage: {
          ...emptyBillableUsage,
          ...promptCacheWritesHeld(request, inputTokens),
          promptTokens: inputTokens,
          completionTokens: outputCap,
        },
      };
    }
    case 'embeddings':
      return { inputTokens, usage: { ...emptyBillableUsage, promptTokens: inputTokens } };
    case 'images.generations':
    case 'images.edits': {
      const image = { size: optionalString(body.size), quality: optionalString(body.quality) };
      return { inputTokens, usage: { ...emptyBillableUsage, images: Array.from({ length: choices }, () => image) } };
    }
    case 'audio.transcriptions':
      return { inputTokens, usage: estimateTranscriptionUsage(request) };
    default: {
      const unreachable: never = endpoint;
      return unreachable;
    }
  }
}

/**
 * A request that asks the vendor to cache its prompt may have all of it written: held at the write price of its
 * longest TTL (a 1-hour TTL at the 1-hour price, 2× input at list prices; 5 minutes at 1.25×).
 */
function promptCacheWritesHeld(
  request: MeteredRequest,
  inputTokens: number,
): Pick<BillableUsage, 'cacheWritePromptTokens' | 'cacheWriteOneHourPromptTokens'> {
  switch (request.promptCacheTtl) {
    case undefined:
      return { cacheWritePromptTokens: 0, cacheWriteOneHourPromptTokens: 0 };
    case 'five-minutes':
      return { cacheWritePromptTokens: inputTokens, cacheWriteOneHourPromptTokens: 0 };
    case 'one-hour':
      return { cacheWritePromptTokens: inputTokens, cacheWriteOneHourPromptTokens: inputTokens };
    default: {
      const unreachable: never = request.promptCacheTtl;
      return unreachable;
    }
  }
}

function requireCanonicalRequest(request: MeteredRequest): CanonicalRequest {
  if (!request.canonicalRequest) throw new Error(`A ${request.endpoint} request must carry its canonical request`);
  return request.canonicalRequest;
}

/**
 * Completions a legacy request makes the vendor generate: `best_of` candidates (of which `n` are returned, so
 * `best_of` ≥ `n`) for each prompt of a batch (`prompt` as an array of strings or of token arrays).
 */
function countLegacyGenerations(body: Record<string, unknown>, choices: number): number {
  const candidates = Math.max(choices, positiveInteger(body.best_of) ?? 1);
  const { prompt } = body;
  const isBatch =
    Array.isArray(prompt) && prompt.length > 0 && (typeof prompt[0] === 'string' || Array.isArray(prompt[0]));
  return candidates * (isBatch ? prompt.length : 1);
}

function positiveInteger(value: unknown): number | undefined {
  if (typeof value === 'string' && value.trim() !== '') value = Number(value);
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
