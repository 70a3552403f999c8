// POST models/{model}:batchEmbedContents: deterministic vectors, validated like the Gemini API (no usage in the answer).
import { geminiInvalidArgument } from './gemini-simulator-errors.js';

const defaultDimensions = 8;

/** Answers a batchEmbedContents body for the model in the URL. */
export function answerGeminiEmbeddings(body: unknown, model: string): { embeddings: Array<{ values: number[] }> } {
  const requests = (body as { requests?: unknown } | null)?.requests;
  if (!Array.isArray(requests) || requests.length === 0)
    throw geminiInvalidArgument('* BatchEmbedContentsRequest.requests: requests must not be empty.');
  return {
    embeddings: requests.map((request: unknown, index) => {
      const fields = (request ?? {}) as {
        model?: unknown;
        content?: { parts?: Array<{ text?: unknown }> };
        outputDimensionality?: unknown;
      };
      if (fields.model !== `models/${model}`)
        throw geminiInvalidArgument(
          `* BatchEmbedContentsRequest.requests[${index}].model: the model must be models/${model}.`,
        );
      const text =
        fields.content?.parts?.map((part) => (typeof part.text === 'string' ? part.text : '')).join('') ?? '';
      if (!text)
        throw geminiInvalidArgument(`* BatchEmbedContentsRequest.requests[${index}].content: content must have text.`);
      const dimensions =
        typeof fields.outputDimensionality === 'number' ? fields.outputDimensionality : defaultDimensions;
      return {
        values: Array.from({ length: dimensions }, (_, position) => ((text.length + position) % 7) / 8 - 0.375),
      };
    }),
  };
}
