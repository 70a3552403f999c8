// Checks a Sora create request as OpenAI's Videos API does (openai-openapi.yaml `CreateVideoMultipartBody`).
import { invalidRequest } from './openai-simulator-errors.js';
import type { RequestBody } from './openai-simulator-validation.js';

/** Sora model names and the sizes each renders. */
const sizesByModel = new Map<string, readonly string[]>([
  ['sora-2', ['720x1280', '1280x720']],
  ['sora-2-2025-10-06', ['720x1280', '1280x720']],
  ['sora-2-2025-12-08', ['720x1280', '1280x720']],
  ['sora-2-pro', ['720x1280', '1280x720', '1024x1792', '1792x1024']],
  ['sora-2-pro-2025-10-06', ['720x1280', '1280x720', '1024x1792', '1792x1024']],
]);
const allowedFields = new Set(['model', 'prompt', 'seconds', 'size', 'input_reference']);

/** A valid create request, defaults applied. */
export interface SoraCreateRequest {
  model: string;
  prompt: string;
  /** `"4"`, `"8"` or `"12"` */
  seconds: string;
  /** e.g. `720x1280` */
  size: string;
}

/** Validates the create body (multipart fields, or JSON); throws OpenAI's 400 naming the field. */
export function validateSoraCreate(body: RequestBody): SoraCreateRequest {
  for (const name of Object.keys(body)) {
    if (!allowedFields.has(name)) throw invalidRequest(`Unknown parameter: '${name}'.`, name, 'unknown_parameter');
  }
  const prompt = body.prompt;
  if (typeof prompt !== 'string' || prompt === '')
    throw invalidRequest("Missing required parameter: 'prompt'.", 'prompt', 'missing_required_parameter');
  if (prompt.length > 32_000)
    throw invalidRequest("Invalid 'prompt': string too long.", 'prompt', 'string_above_max_length');
  const model = body.model ?? 'sora-2';
  const sizes = typeof model === 'string' ? sizesByModel.get(model) : undefined;
  if (typeof model !== 'string' || !sizes)
    throw invalidRequest(
      `Invalid value: '${String(model)}'. Supported values are: ${[...sizesByModel.keys()].map((name) => `'${name}'`).join(', ')}.`,
      'model',
      'invalid_value',
    );
  const seconds = body.seconds ?? '4';
  if (typeof seconds !== 'string' || !['4', '8', '12'].includes(seconds)) {
    throw invalidRequest(
      `Invalid value: '${String(seconds)}'. Supported values are: '4', '8', and '12'.`,
      'seconds',
      'invalid_value',
    );
  }
  const size = body.size ?? '720x1280';
  if (typeof size !== 'string' || !sizes.includes(size))
    throw invalidRequest(
      `Invalid value: '${String(size)}'. ${model} supports: ${sizes.join(', ')}.`,
      'size',
      'invalid_value',
    );
  return { model, prompt, seconds, size };
}
