import { z } from 'zod';
import { GatewayError } from '../../core/gateway-error.js';
import type { TokenUsage } from '../../core/token-usage.js';
import { encodeFloat32Base64 } from '../gemini/encode-float32-base64.js';
import type { EmbeddingListObject, EmbeddingRequestFields, VendorCall } from '../vendor-adapter.js';

/** Vertex's `:predict` answer for text-embedding models: one vector per instance, with its token count. */
const predictAnswerSchema = z.object({
  predictions: z.array(
    z.object({
      embeddings: z.object({
        values: z.array(z.number()),
        statistics: z.object({ token_count: z.number().int().min(0) }).optional(),
      }),
    }),
  ),
});

/**
 * Embeddings through Vertex's `:predict` (`gemini-embedding-001`, `text-embedding-005`, ...): one instance per input
 * text, `dimensions` as `outputDimensionality`, and `autoTruncate: false`, so an input over the model's limit is an
 * error as on OpenAI, never a vector of a silently cut text. Vertex counts each input's tokens: that is the bill.
 */
export const vertexEmbeddings = {
  /** the body only: the adapter adds the address and the authentication */
  encode(request: EmbeddingRequestFields): { url: string; headers: Record<string, string>; body: string } {
    const instances = inputTexts(request).map((content) => ({ content }));
    const parameters = {
      autoTruncate: false,
      ...(request.dimensions ? { outputDimensionality: request.dimensions } : {}),
    };
    return { url: '', headers: {}, body: JSON.stringify({ instances, parameters }) };
  },
  decode(
    bodyText: string,
    request: EmbeddingRequestFields,
    call: VendorCall,
  ): { response: EmbeddingListObject; usage: TokenUsage | undefined } {
    const checked = predictAnswerSchema.safeParse(JSON.parse(bodyText));
    if (!checked.success || checked.data.predictions.length !== inputTexts(request).length)
      throw new Error('The Vertex AI answer has no vector of numbers for each input.');
    const predictions = checked.data.predictions;
    const counted = predictions.every((prediction) => prediction.embeddings.statistics !== undefined);
    const promptTokens = predictions.reduce(
      (total, prediction) => total + (prediction.embeddings.statistics?.token_count ?? 0),
      0,
    );
    const usage: TokenUsage | undefined = counted
      ? { promptTokens, completionTokens: 0, totalTokens: promptTokens, cachedPromptTokens: 0, reasoningTokens: 0 }
      : undefined;
    return {
      response: {
        object: 'list',
        data: predictions.map((prediction, index) => ({
          object: 'embedding' as const,
          index,
          embedding:
            request.encoding_format === 'base64'
              ? encodeFloat32Base64(prediction.embeddings.values)
              : prediction.embeddings.values,
        })),
        model: call.publicModelId,
        usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
      },
      usage,
    };
  },
};

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
