import { GatewayError } from '../../core/gateway-error.js';

/** What `GET /v1/videos/{id}/content` can return (OpenAI's `VideoContentVariant`). */
export type VideoContentVariant = 'video' | 'thumbnail' | 'spritesheet';

const variants: readonly VideoContentVariant[] = ['video', 'thumbnail', 'spritesheet'];

/** The `variant` query value (default `video`); anything else is a 400 naming `variant`. */
export function parseVideoContentVariant(value: string | undefined): VideoContentVariant {
  if (value === undefined || value === '') return 'video';
  const variant = variants.find((candidate) => candidate === value);
  if (!variant)
    throw new GatewayError(
      'invalid_request_error',
      `Invalid value for 'variant': must be one of ${variants.join(', ')}.`,
      { param: 'variant' },
    );
  return variant;
}
