import { GatewayError } from '../../core/gateway-error.js';
import type { AnthropicContentBlock } from './anthropic-wire-types.js';

const acceptedMediaTypes = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);
const dataUrlPattern = /^data:([^;,]+);base64,(.*)$/s;

/** An OpenAI image URL as an Anthropic image block: data URLs become base64 sources, http(s) URLs `url` sources. */
export function convertAnthropicImage(url: string, param: string): AnthropicContentBlock {
  const dataUrl = dataUrlPattern.exec(url);
  if (dataUrl) {
    const mediaType = (dataUrl[1] ?? '').toLowerCase();
    if (!acceptedMediaTypes.has(mediaType)) {
      throw new GatewayError(
        'invalid_request_error',
        `Images must be JPEG, PNG, GIF or WebP for this model, not '${mediaType}'.`,
        { param },
      );
    }
    return { type: 'image', source: { type: 'base64', media_type: mediaType, data: dataUrl[2] ?? '' } };
  }
  if (/^https?:\/\//i.test(url)) return { type: 'image', source: { type: 'url', url } };
  throw new GatewayError('invalid_request_error', 'An image URL must be an http(s) URL or a base64 data URL.', {
    param,
  });
}
