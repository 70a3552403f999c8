import { GatewayError } from '../../core/gateway-error.js';

/** The methods a `POST /v1beta/models/{model}:{method}` path may name. */
export type GeminiModelMethod =
  'generateContent' | 'streamGenerateContent' | 'countTokens' | 'embedContent' | 'batchEmbedContents';

const methods = new Set<string>([
  'generateContent',
  'streamGenerateContent',
  'countTokens',
  'embedContent',
  'batchEmbedContents',
]);

/** The model id of a Gemini model name: `models/<id>` or `<id>` (ids may hold slashes); `tunedModels/` is refused. */
export function geminiModelId(name: string): string {
  const id = name.startsWith('models/') ? name.slice('models/'.length) : name;
  if (id.length === 0 || id.startsWith('tunedModels/')) {
    throw new GatewayError(
      'not_found',
      `Model '${name}' is not served here: name a model as 'models/<id>' (tuned models are not served).`,
    );
  }
  return id;
}

/** The model id and method of the last path segment, `<model>:<method>`; unknown methods are 404. */
export function parseGeminiModelAction(segment: string): { modelId: string; method: GeminiModelMethod } {
  const colon = segment.lastIndexOf(':');
  const method = colon < 0 ? '' : segment.slice(colon + 1);
  if (!isGeminiModelMethod(method)) {
    throw new GatewayError(
      'not_found',
      `Unknown method '${method}' for models/${segment.slice(0, Math.max(colon, 0))}: use generateContent, streamGenerateContent, countTokens, embedContent or batchEmbedContents.`,
    );
  }
  return { modelId: geminiModelId(segment.slice(0, colon)), method };
}

function isGeminiModelMethod(method: string): method is GeminiModelMethod {
  return methods.has(method);
}
