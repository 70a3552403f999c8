// POST /v1/embeddings: deterministic vectors derived from a hash of each input, as floats or base64.
import type { EndpointHandler } from './openai-simulator-endpoint.js';
import { invalidRequest } from './openai-simulator-errors.js';
import { countWords } from './openai-simulator-text.js';
import { checkIntegerRange, requireField, type RequestBody } from './openai-simulator-validation.js';

/** One embedding input, as text plus its token count. */
interface EmbeddingInput {
  text: string;
  tokens: number;
}

const defaultDimensions = 8;
const twoToThe24 = 16_777_216;

/** Answers an embeddings request. */
export const handleEmbeddings: EndpointHandler = ({ body }) => {
  requireField(body, 'model');
  const inputs = embeddingInputs(body.input);
  checkIntegerRange(body, 'dimensions', 1, 4096);
  const dimensions = typeof body.dimensions === 'number' ? body.dimensions : defaultDimensions;
  const asBase64 = encodingOf(body) === 'base64';
  const data = inputs.map((input, index) => {
    const vector = embeddingVector(input.text, dimensions);
    return { object: 'embedding', index, embedding: asBase64 ? encodeFloat32Base64(vector) : vector };
  });
  const promptTokens = inputs.reduce((total, input) => total + input.tokens, 0);
  return {
    kind: 'json',
    body: {
      object: 'list',
      data,
      model: String(body.model),
      usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
    },
  };
};

/**
 * The same text always gives the same vector. Every value is (2k+1)/2^24 - 1 for an integer k, so it lies strictly
 * inside (-1, 1) and is exactly representable as a float32: the float and base64 encodings decode to identical numbers.
 */
export function embeddingVector(text: string, dimensions: number): number[] {
  let state = hashText(text) || 1;
  const vector: number[] = [];
  for (let index = 0; index < dimensions; index++) {
    state = nextXorshift(state);
    vector.push(((state >>> 8) * 2 + 1) / twoToThe24 - 1);
  }
  return vector;
}

/** Base64 of the little-endian float32 bytes, as OpenAI sends with `encoding_format: "base64"`. */
export function encodeFloat32Base64(vector: number[]): string {
  const bytes = Buffer.alloc(vector.length * 4);
  vector.forEach((value, index) => bytes.writeFloatLE(value, index * 4));
  return bytes.toString('base64');
}

function encodingOf(body: RequestBody): string {
  const format = body.encoding_format ?? 'float';
  if (format === 'float' || format === 'base64') return format;
  throw invalidRequest(
    `Invalid value: '${String(format)}'. Supported values are: 'float' and 'base64'.`,
    'encoding_format',
    'invalid_value',
  );
}

/** Accepts a string, strings, token ids, or arrays of token ids; anything empty is rejected like OpenAI does. */
function embeddingInputs(input: unknown): EmbeddingInput[] {
  if (typeof input === 'string' && input.length > 0) return [{ text: input, tokens: Math.max(1, countWords(input)) }];
  if (Array.isArray(input) && input.length > 0) {
    if (input.every((item) => typeof item === 'number')) return [tokenInput(input)];
    if (
      input.every((item) => (typeof item === 'string' && item.length > 0) || (Array.isArray(item) && item.length > 0))
    ) {
      return input.map((item) =>
        typeof item === 'string' ? { text: item, tokens: Math.max(1, countWords(item)) } : tokenInput(item),
      );
    }
  }
  if (input === undefined || input === null) {
    throw invalidRequest("Missing required parameter: 'input'.", 'input', 'missing_required_parameter');
  }
  throw invalidRequest(
    "'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.",
    'input',
  );
}

function tokenInput(tokenIds: unknown[]): EmbeddingInput {
  return { text: tokenIds.join(' '), tokens: tokenIds.length };
}

/** FNV-1a over the UTF-16 code units: cheap and stable. */
function hashText(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

function nextXorshift(state: number): number {
  let next = state;
  next ^= next << 13;
  next ^= next >>> 17;
  next ^= next << 5;
  return next >>> 0;
}
