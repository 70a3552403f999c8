import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../../core/gateway-error.js';

/** OpenAI video operations this gateway does not offer, each with the SDK method that calls it. */
const unsupportedOperations = [
  { method: 'POST', url: '/v1/videos/:videoId/remix', name: 'Video remix (videos.remix)' },
  { method: 'POST', url: '/v1/videos/edits', name: 'Video edits (videos.edit)' },
  { method: 'POST', url: '/v1/videos/extensions', name: 'Video extensions (videos.extend)' },
  { method: 'POST', url: '/v1/videos/characters', name: 'Video characters (videos.createCharacter)' },
  { method: 'GET', url: '/v1/videos/characters/:characterId', name: 'Video characters (videos.getCharacter)' },
] as const;

/** Answers OpenAI's remix, edits, extensions and characters with a 400 that says they are unsupported, unread. */
export function registerUnsupportedVideoRoutes(app: FastifyInstance): void {
  for (const operation of unsupportedOperations) {
    app.route({
      method: operation.method,
      url: operation.url,
      // Either body kind gets the same clear answer instead of a 415 about its content type.
      config: { multipartBody: 'optional' },
      handler: async () => {
        throw new GatewayError(
          'invalid_request_error',
          `${operation.name} is not supported by this gateway; create a new video with POST /v1/videos.`,
        );
      },
    });
  }
}
