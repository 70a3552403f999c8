import type { MeteredRequest } from './request-accounting.js';
import type { BillableUsage } from './billable-usage.js';
import { emptyBillableUsage } from './billable-usage.js';
import { estimateInlinePdfTokens } from './estimate-document-pages.js';
import { estimateTranscriptionUsage } from './estimate-transcription-usage.js';

/** Output tokens reserved when neither the request nor the catalog gives a cap. */
export const defaultMaxOutputTokens = 4_096;

/** The most a request can consume: its counted input plus its whole output allowance. */
export interface WorstCaseEstimate {
  usage: BillableUsage;
  /** input tokens counted from the request */
  inputTokens: number;
}

/**
 * The worst-case usage of a request before it is sent: what accounting holds against the balance. Reads the typed
 * estimate its client protocol made (MeteredRequest.estimate), never the request itself.
 */
export function estimateWorstCaseUsage(
  request: MeteredRequest,
  fallbackMaxOutputTokens: number = defaultMaxOutputTokens,
): WorstCaseEstimate {
  const { estimate, endpoint, model } = request;
  const inputTokens =
    estimate.inlinePdfs.length === 0
      ? estimate.inputTokens
      : estimate.inputTokens + estimateInlinePdfTokens(estimate.inlinePdfs, request.documentPages);
  switch (endpoint) {
    case 'chat.completions':
    case 'completions': {
      const outputCap = outputTokensHeld(estimate.outputTokenCap, model.maxOutputTokens, fallbackMaxOutputTokens);
      return {
        inputTokens,
        usage: { ...emptyBillableUsage, promptTokens: inputTokens, completionTokens: outputCap * estimate.generations },
      };
    }
    case 'responses':
    case 'messages': {
      const outputCap = outputTokensHeld(estimate.outputTokenCap, model.maxOutputTokens, fallbackMaxOutputTokens);
      return {
        inputTokens,
        usage: {
          ...emptyBillableUsage,
          ...promptCacheWritesHeld(request, inputTokens),
          promptTokens: inputTokens,
          completionTokens: outputCap * estimate.generations,
        },
      };
    }
    case 'embeddings':
      return { inputTokens, usage: { ...emptyBillableUsage, promptTokens: inputTokens } };
    case 'images.generations':
    case 'images.edits': {
      const requested = estimate.requestedImages;
      const images = requested ? Array.from({ length: requested.count }, () => requested.image) : [];
      return { inputTokens, usage: { ...emptyBillableUsage, images } };
    }
    case 'audio.transcriptions':
      return { inputTokens, usage: estimateTranscriptionUsage(request) };
    case 'audio.speech':
    case 'moderations':
      // Speech: the input (characters or tokens) and its audio spoken slowly; moderations generate nothing.
      return {
        inputTokens,
        usage: { ...emptyBillableUsage, promptTokens: inputTokens, completionTokens: estimate.outputTokenCap ?? 0 },
      };
    default: {
      const unreachable: never = endpoint;
      return unreachable;
    }
  }
}

/**
 * Output tokens held per generation: the request's cap, but never more than the model can produce (the catalog's cap:
 * a translated request is sent with its cap lowered to it, and a vendor refuses a cap above it), else the default. Claude
 * Code asks for 32,000 tokens of every model: a model that stops at 16,384 holds 16,384.
 */
function outputTokensHeld(requested: number | undefined, modelCap: number | undefined, fallback: number): number {
  if (modelCap === undefined) return requested ?? fallback;
  return requested === undefined ? modelCap : Math.min(requested, modelCap);
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
