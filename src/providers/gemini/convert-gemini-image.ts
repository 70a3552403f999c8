import { GatewayError } from '../../core/gateway-error.js';
import type { RemoteImage } from '../remote-image/remote-image.js';
import type { GeminiPart } from './gemini-wire-types.js';
import { isGeminiFileUri } from './is-gemini-file-uri.js';

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
 * An OpenAI image URL as a Gemini part: data URLs and fetched http(s) URLs (`remoteImages`, by URL) become `inlineData`;
 * Gemini Files API URIs become `fileData`, with the MIME type from the file extension when it has one (Gemini knows
 * an uploaded file's type).
 */
export function convertGeminiImage(
  url: string,
  param: string,
  remoteImages: ReadonlyMap<string, RemoteImage>,
): GeminiPart {
  const dataUrl = dataUrlPattern.exec(url);
  if (dataUrl) return { inlineData: { mimeType: (dataUrl[1] ?? '').toLowerCase(), data: dataUrl[2] ?? '' } };
  if (isGeminiFileUri(url)) {
    const extension = /\.([A-Za-z0-9]+)$/.exec(new URL(url).pathname)?.[1]?.toLowerCase();
    const mimeType = extension ? mimeTypeByExtension[extension] : undefined;
    return { fileData: { fileUri: url, ...(mimeType ? { mimeType } : {}) } };
  }
  const fetched = remoteImages.get(url);
  if (fetched) return { inlineData: { mimeType: fetched.mediaType, data: fetched.base64 } };
  if (/^https?:\/\//i.test(url)) {
    throw new GatewayError(
      'invalid_request_error',
      'This gateway does not fetch image URLs for this model; send the image as a base64 data: URL.',
      { param: `${param}.image_url.url` },
    );
  }
  throw new GatewayError('invalid_request_error', 'An image URL must be an http(s) URL or a base64 data URL.', {
    param,
  });
}
