import { z } from 'zod';
import { GatewayError } from '../../core/gateway-error.js';
import type { TokenUsage } from '../../core/token-usage.js';
import type { VendorAdapter, EmbeddingRequestFields } from '../vendor-adapter.js';
import { encodeFloat32Base64 } from './encode-float32-base64.js';
import { geminiHeaders, geminiModelUrl } from './encode-gemini-request.js';

type GeminiEmbeddings = NonNullable<VendorAdapter['embeddings']>;

/** Characters per token of the estimate used because Gemini's batchEmbedContents reports no usage. */
const estimatedCharactersPerToken = 4;

/**
 * Embeddings through `:batchEmbedContents`, one request per input text. Gemini embeds text only, so token
 * arrays are refused with a 400. `dimensions` becomes `outputDimensionality`.
 */
export const geminiEmbeddings: GeminiEmbeddings = {
  encode(request, call) {
    const model = `models/${call.upstreamModelId.replace(/^models\//, '')}`;
    const requests = inputTexts(request).map((text) => ({
      model,
      content: { parts: [{ text }] },
      ...(request.dimensions ? { outputDimensionality: request.dimensions } : {}),
    }));
    return {
      url: geminiModelUrl(call.channel, call.upstreamModelId, 'batchEmbedContents'),
      headers: geminiHeaders(call.channel),
      body: JSON.stringify({ requests }),
    };
  },
  decode(bodyText, request, call) {
    // Checked at the edge: one vector of numbers per input, or the answer is no answer (dispatch answers 502).
    const checked = batchEmbedAnswerSchema.safeParse(JSON.parse(bodyText));
    if (!checked.success || checked.data.embeddings.length !== inputTexts(request).length)
      throw new Error('The Gemini answer has no vector of numbers for each input.');
    const usage = estimateUsage(request);
    const data = checked.data.embeddings.map((embedding, index) => {
      const values = embedding.values;
      return {
        object: 'embedding' as const,
        index,
        embedding: request.encoding_format === 'base64' ? encodeFloat32Base64(values) : values,
      };
    });
    return {
      response: {
        object: 'list',
        data,
        model: call.publicModelId,
        usage: { prompt_tokens: usage.promptTokens, total_tokens: usage.totalTokens },
      },
      usage,
    };
  },
};

/** Gemini's `batchEmbedContents` answer: one embedding of number values per request. */
const batchEmbedAnswerSchema = z.object({ embeddings: z.array(z.object({ values: z.array(z.number()) })) });

function inputTexts(request: EmbeddingRequestFields): string[] {
  const input = request.input;
  if (typeof input === 'string') return [input];
  if (input.every((item): item is string => typeof item === 'string')) return input as string[];
  throw new GatewayError(
    'invalid_request_error',
    'This model embeds text only; send `input` as a string or an array of strings.',
    { param: 'input' },
  );
}

/** An estimate (one token per 4 characters, at least 1 per input), billed and reported alike, since the vendor gives none. */
function estimateUsage(request: EmbeddingRequestFields): TokenUsage {
  const promptTokens = inputTexts(request).reduce(
    (total, text) => total + Math.max(1, Math.ceil(text.length / estimatedCharactersPerToken)),
    0,
  );
  return { promptTokens, completionTokens: 0, totalTokens: promptTokens, cachedPromptTokens: 0, reasoningTokens: 0 };
}
