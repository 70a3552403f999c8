import { GatewayError } from '../../core/gateway-error.js';
import type { RemoteImage } from '../remote-image/remote-image.js';
import type { BedrockContentBlock, BedrockImageFormat } from './bedrock-converse-types.js';

const dataUrlPattern = /^data:([a-z]+\/[a-z0-9.+-]+);base64,(.*)$/is;

const formatsByMediaType: Readonly<Record<string, BedrockImageFormat>> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/jpg': 'jpeg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

/**
 * Converts an image URL to a Converse image block. Converse takes image bytes only (or S3 locations), never
 * http(s) URLs, so those must have been fetched into `remoteImages` (by URL); `param` names the part's `image_url`.
 */
export function convertBedrockImagePart(
  url: string,
  param: string,
  remoteImages: ReadonlyMap<string, RemoteImage>,
): BedrockContentBlock {
  const fetched = remoteImages.get(url);
  if (fetched) return { image: { format: formatOf(fetched.mediaType, param), source: { bytes: fetched.base64 } } };
  const match = dataUrlPattern.exec(url);
  if (!match) {
    const message = /^https?:\/\//i.test(url)
      ? 'This gateway does not fetch image URLs for this model; send the image as a base64 data: URL.'
      : 'Bedrock models accept images as http(s) URLs or base64 data: URLs.';
    throw new GatewayError('invalid_request_error', message, { param: `${param}.url` });
  }
  return {
    image: { format: formatOf((match[1] ?? '').toLowerCase(), param), source: { bytes: (match[2] ?? '').trim() } },
  };
}

function formatOf(mediaType: string, param: string): BedrockImageFormat {
  const format = formatsByMediaType[mediaType];
  if (!format)
    throw new GatewayError(
      'invalid_request_error',
      `Bedrock models accept png, jpeg, gif or webp images, not '${mediaType}'.`,
      { param },
    );
  return format;
}
