import { GatewayError } from '../../core/gateway-error.js';
import type { GeminiPart } from './gemini-wire-types.js';

const dataUrlPattern = /^data:([^;,]+);base64,(.*)$/s;
const mimeTypeByExtension: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
  heic: 'image/heic',
  heif: 'image/heif',
};

/**
 * An OpenAI image URL as a Gemini part: data URLs become `inlineData`; http(s) URLs become `fileData` with
 * the MIME type guessed from the file extension, or a 400 when the extension does not say (never a guess).
 */
export function convertGeminiImage(url: string, param: string): GeminiPart {
  const dataUrl = dataUrlPattern.exec(url);
  if (dataUrl) return { inlineData: { mimeType: (dataUrl[1] ?? '').toLowerCase(), data: dataUrl[2] ?? '' } };
  if (/^https?:\/\//i.test(url)) {
    const extension = /\.([A-Za-z0-9]+)(?:[?#].*)?$/.exec(new URL(url).pathname)?.[1]?.toLowerCase();
    const mimeType = extension ? mimeTypeByExtension[extension] : undefined;
    if (!mimeType) {
      throw new GatewayError('invalid_request_error', 'This model needs the image type: use a data URL, or a URL ending in .png, .jpg, .jpeg, .webp, .gif, .heic or .heif.', { param });
    }
    return { fileData: { mimeType, fileUri: url } };
  }
  throw new GatewayError('invalid_request_error', 'An image URL must be an http(s) URL or a base64 data URL.', { param });
}
