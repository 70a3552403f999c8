import { GatewayError } from '../../core/gateway-error.js';
import type { ChatImagePart } from '../../core/openai-chat-request.js';
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
 * Converts an OpenAI image part to a Converse image block. Converse takes image bytes only (or S3 locations),
 * never http(s) URLs, and the gateway does not fetch URLs on the client's behalf: those get a 400 naming the part.
 */
export function convertBedrockImagePart(part: ChatImagePart, param: string): BedrockContentBlock {
  const url = part.image_url.url;
  const match = dataUrlPattern.exec(url);
  if (!match) {
    throw new GatewayError('invalid_request_error', 'Bedrock models accept images only as base64 `data:` URLs, not http(s) URLs.', { param });
  }
  const mediaType = (match[1] ?? '').toLowerCase();
  const format = formatsByMediaType[mediaType];
  if (!format) {
    throw new GatewayError('invalid_request_error', `Bedrock models accept png, jpeg, gif or webp images, not '${mediaType}'.`, { param });
  }
  return { image: { format, source: { bytes: (match[2] ?? '').trim() } } };
}
