import { z } from 'zod';
import { GatewayError } from '../../core/gateway-error.js';
import { validateProtocolBody } from '../shared/validate-protocol-body.js';
import {
  batchEmbedContentsRequestSchema,
  embedContentRequestSchema,
  type EmbedContentRequestBody,
} from './gemini-request-schema.js';

/** Gemini embedding requests as the gateway's embedding request: one input text per content, float vectors. */
export interface GeminiEmbeddingRequest {
  input: string[];
  dimensions?: number;
}

/** An `embedContent` body (one content) as an embedding request. */
export function parseEmbedContentRequest(body: unknown): GeminiEmbeddingRequest {
  const parsed = validateProtocolBody(embedContentRequestSchema, objectOf(body));
  return toEmbeddingRequest([parsed], '');
}

/** A `batchEmbedContents` body as one embedding request; every entry must ask for the same dimensionality. */
export function parseBatchEmbedContentsRequest(body: unknown): GeminiEmbeddingRequest {
  const parsed = validateProtocolBody(batchEmbedContentsRequestSchema, objectOf(body));
  return toEmbeddingRequest(parsed.requests, 'requests');
}

function toEmbeddingRequest(requests: readonly EmbedContentRequestBody[], param: string): GeminiEmbeddingRequest {
  const prefix = (index: number): string => (param ? `${param}[${index}].` : '');
  const dimensions = new Set(requests.map((request) => request.outputDimensionality));
  if (dimensions.size > 1)
    throw new GatewayError('invalid_request_error', 'Every request must ask for the same outputDimensionality.', {
      param: `${prefix(0)}outputDimensionality`,
    });
  const input = requests.map((request, index) => {
    // A task type or title shapes Google's vectors only; other vendors' vectors would differ from what was asked.
    if (request.taskType !== undefined)
      refuse(`${prefix(index)}taskType`, 'taskType is not supported by this gateway (vendors differ in it).');
    if (request.title !== undefined)
      refuse(`${prefix(index)}title`, 'title is not supported by this gateway (vendors differ in it).');
    return request.content.parts
      .map((part, partIndex) => {
        if (part.text === undefined)
          refuse(`${prefix(index)}content.parts[${partIndex}]`, 'Only text parts can be embedded.');
        return part.text;
      })
      .join('\n');
  });
  const [outputDimensionality] = [...dimensions];
  return outputDimensionality === undefined ? { input } : { input, dimensions: outputDimensionality };
}

function refuse(param: string, message: string): never {
  throw new GatewayError('invalid_request_error', message, { param });
}

function objectOf(body: unknown): Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new GatewayError('invalid_request_error', 'The request body must be a JSON object.');
  return body as Record<string, unknown>;
}

/** The embedding list the gateway answers embeddings with (float vectors), as far as the Gemini shape needs it. */
const embeddingListSchema = z.object({
  data: z.array(z.object({ index: z.number().int(), embedding: z.array(z.number()) })),
});

/**
 * The gateway's embedding list as Gemini's answer: `{embedding: {values}}` for embedContent, `{embeddings: [...]}` for
 * batchEmbedContents; undefined when the body is not an embedding list (an error body, left as it is).
 */
export function toGeminiEmbeddingAnswer(listJson: string, batch: boolean): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(listJson);
  } catch {
    return undefined;
  }
  const list = embeddingListSchema.safeParse(parsed);
  if (!list.success) return undefined;
  const vectors = [...list.data.data].sort((left, right) => left.index - right.index);
  if (batch) return JSON.stringify({ embeddings: vectors.map((vector) => ({ values: vector.embedding })) });
  return JSON.stringify({ embedding: { values: vectors[0]?.embedding ?? [] } });
}
