// Vertex's `:predict` for text embeddings, validated as Vertex does: `instances[{content, task_type?, title?}]`,
// `parameters{autoTruncate?, outputDimensionality?}`; one deterministic vector per instance with its token count
// (words), and an error for an input over the limit when autoTruncate is false.
import { GeminiSimulatedError } from './gemini-simulator-errors.js';
import { countWords } from './openai-simulator-text.js';

/** the words an input may have before it is "too long" (the simulator's small stand-in for 2,048 tokens) */
export const vertexEmbeddingInputLimit = 2048;
const defaultDimensions = 768;
const instanceFields = new Set(['content', 'task_type', 'title']);
const parameterFields = new Set(['autoTruncate', 'outputDimensionality']);

/** The answer of one validated `:predict` request. */
export function answerVertexEmbeddings(body: unknown): unknown {
  if (typeof body !== 'object' || body === null) throw invalid('The request body must be a JSON object.');
  const { instances, parameters = {}, ...unknown } = body as Record<string, unknown>;
  const unknownField = Object.keys(unknown)[0];
  if (unknownField !== undefined) throw invalid(`Invalid JSON payload received. Unknown name "${unknownField}".`);
  if (!Array.isArray(instances) || instances.length === 0 || instances.length > 250)
    throw invalid('instances must hold 1 to 250 instances.');
  if (typeof parameters !== 'object' || parameters === null) throw invalid('parameters must be an object.');
  const parameterRecord = parameters as Record<string, unknown>;
  for (const name of Object.keys(parameterRecord))
    if (!parameterFields.has(name)) throw invalid(`Invalid JSON payload received. Unknown name "${name}".`);
  const dimensions = parameterRecord.outputDimensionality ?? defaultDimensions;
  if (typeof dimensions !== 'number' || !Number.isInteger(dimensions) || dimensions < 1 || dimensions > 3072)
    throw invalid('outputDimensionality must be an integer from 1 to 3072.');
  const autoTruncate = parameterRecord.autoTruncate ?? true;
  const predictions = instances.map((instance: unknown, index) => {
    if (typeof instance !== 'object' || instance === null) throw invalid(`instances[${index}] must be an object.`);
    const fields = instance as Record<string, unknown>;
    for (const name of Object.keys(fields))
      if (!instanceFields.has(name)) throw invalid(`Invalid JSON payload received. Unknown name "${name}".`);
    if (typeof fields.content !== 'string') throw invalid(`instances[${index}].content must be a string.`);
    const words = countWords(fields.content);
    if (words > vertexEmbeddingInputLimit && autoTruncate === false)
      throw invalid(`Input ${index} is longer than the maximum number of tokens for this model.`);
    const tokenCount = Math.max(1, Math.min(words, vertexEmbeddingInputLimit));
    const values = Array.from({ length: dimensions }, (_, position) =>
      Number(Math.sin((position + 1) * (tokenCount + index + 1)).toFixed(6)),
    );
    return { embeddings: { values, statistics: { token_count: tokenCount, truncated: words > tokenCount } } };
  });
  return { predictions, metadata: { billableCharacterCount: 0 } };
}

function invalid(message: string): GeminiSimulatedError {
  return new GeminiSimulatedError(400, message);
}
