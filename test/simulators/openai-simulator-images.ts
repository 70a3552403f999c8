// POST /v1/images/generations (JSON) and /v1/images/edits (multipart): fake image URLs or a tiny real PNG.
import type { EndpointHandler } from './openai-simulator-endpoint.js';
import { invalidRequest } from './openai-simulator-errors.js';
import { filesNamed, numberField, textField } from './openai-simulator-multipart.js';
import { countWords, nowInSeconds, randomIdentifier } from './openai-simulator-text.js';
import { checkIntegerRange, requireField, type RequestBody } from './openai-simulator-validation.js';

/** What the image endpoints need from a request, whichever way it was encoded. */
interface ImageRequest {
  model: string;
  prompt: string;
  imageCount: number;
  responseFormat: 'url' | 'b64_json';
  inputImageCount: number;
  revisePrompt: boolean;
}

/** A valid 1x1 RGBA PNG. */
const tinyPngBase64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
/** Output tokens OpenAI bills per low-quality 1024x1024 gpt-image picture. */
const outputTokensPerImage = 272;
/** Input tokens the simulator bills per uploaded image in an edit. */
const inputTokensPerImage = 65;

/** Answers an image generation request (JSON body). */
export const handleImageGeneration: EndpointHandler = ({ body }) => {
  requireField(body, 'prompt');
  checkIntegerRange(body, 'n', 1, 10);
  const request: ImageRequest = {
    model: typeof body.model === 'string' ? body.model : 'dall-e-2',
    prompt: String(body.prompt),
    imageCount: typeof body.n === 'number' ? body.n : 1,
    responseFormat: responseFormatOf(body.response_format),
    inputImageCount: 0,
    revisePrompt: true,
  };
  return { kind: 'json', body: imagesResponse(request) };
};

/** Answers an image edit request (multipart: `image` or `image[]` files, optional `mask`, `prompt`, …). */
export const handleImageEdit: EndpointHandler = ({ body, files }) => {
  const images = filesNamed(files, 'image');
  if (images.length === 0)
    throw invalidRequest("Missing required parameter: 'image'.", 'image', 'missing_required_parameter');
  const prompt = textField(body, 'prompt');
  if (!prompt) throw invalidRequest("Missing required parameter: 'prompt'.", 'prompt', 'missing_required_parameter');
  const imageCount = numberField(body, 'n') ?? 1;
  if (!Number.isInteger(imageCount) || imageCount < 1 || imageCount > 10) {
    throw invalidRequest(
      `Invalid 'n': expected an integer between 1 and 10, but got ${String(body.n)} instead.`,
      'n',
      'invalid_value',
    );
  }
  const request: ImageRequest = {
    model: textField(body, 'model') ?? 'dall-e-2',
    prompt,
    imageCount,
    responseFormat: responseFormatOf(textField(body, 'response_format')),
    inputImageCount: images.length,
    revisePrompt: false,
  };
  return { kind: 'json', body: imagesResponse(request) };
};

function responseFormatOf(value: unknown): 'url' | 'b64_json' {
  if (value === undefined || value === null || value === 'url') return 'url';
  if (value === 'b64_json') return 'b64_json';
  throw invalidRequest(
    `Invalid value: '${String(value)}'. Supported values are: 'url' and 'b64_json'.`,
    'response_format',
    'invalid_value',
  );
}

function imagesResponse(request: ImageRequest): RequestBody {
  const data = Array.from({ length: request.imageCount }, () => imageData(request));
  const response: RequestBody = { created: nowInSeconds(), data };
  if (request.model.startsWith('gpt-image')) response.usage = imageUsage(request);
  return response;
}

function imageData(request: ImageRequest): RequestBody {
  const image: RequestBody =
    request.responseFormat === 'b64_json'
      ? { b64_json: tinyPngBase64 }
      : { url: `https://images.simulator.invalid/${randomIdentifier()}.png` };
  if (request.revisePrompt) image.revised_prompt = request.prompt;
  return image;
}

/** gpt-image usage: prompt words plus uploaded images in, a fixed token count per picture out. */
function imageUsage(request: ImageRequest) {
  const textTokens = Math.max(1, countWords(request.prompt));
  const imageTokens = request.inputImageCount * inputTokensPerImage;
  const outputTokens = request.imageCount * outputTokensPerImage;
  return {
    total_tokens: textTokens + imageTokens + outputTokens,
    input_tokens: textTokens + imageTokens,
    output_tokens: outputTokens,
    input_tokens_details: { text_tokens: textTokens, image_tokens: imageTokens },
  };
}
