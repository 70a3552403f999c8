import type { FastifyInstance, FastifyRequest } from 'fastify';
import { resolveSecretPassphrase } from '../../accounts/secret-box.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { KeyPrincipal } from '../../routing/routing-table.js';
import { authenticateApiKey } from '../authenticate-api-key.js';
import type { GatewayServices } from '../gateway-services.js';
import { parseVideoContentVariant } from '../video/parse-video-content-variant.js';
import { requireVideoTasks } from '../video/require-video-tasks.js';
import { createVideoContentSigner, type VideoContentSigner } from '../video/video-content-signer.js';

interface ContentQuery {
  variant?: string;
  /** Unix seconds, with `signature`: the signed URL of the spec's `video_url` */
  expires?: string;
  signature?: string;
}

/**
 * `GET /v1/videos/{id}/content?variant=…`: the finished video's bytes, streamed by the gateway (vendor URLs and keys
 * never reach the client). Registered outside the keyed /v1 scope because it takes either the owner's API key or a
 * signed, expiring URL with no key (the spec's `video_url`); a bad, expired or foreign signature is a 404.
 */
export function registerVideoContentRoute(app: FastifyInstance, services: GatewayServices): void {
  const signer = createVideoContentSigner(resolveSecretPassphrase(services.config));
  app.get<{ Params: { videoId: string }; Querystring: ContentQuery }>(
    '/v1/videos/:videoId/content',
    {
      onRequest: async (request, reply) => {
        request.receivedAt = services.clock();
        void reply.header('x-request-id', request.id);
      },
    },
    async (request, reply) => {
      const variant = parseVideoContentVariant(request.query.variant);
      const videoTasks = requireVideoTasks(services);
      const principal = await contentCallerOf(request, services, signer);
      const content = await videoTasks.openContent(principal, request.params.videoId, variant);
      void reply.header('content-type', content.contentType);
      if (content.length !== undefined) void reply.header('content-length', String(content.length));
      return reply.send(content.body);
    },
  );
}

/** null for a valid signed URL, else the key's principal; a signed URL that does not verify is a 404 without a key. */
async function contentCallerOf(
  request: FastifyRequest<{ Params: { videoId: string }; Querystring: ContentQuery }>,
  services: GatewayServices,
  signer: VideoContentSigner,
): Promise<KeyPrincipal | null> {
  const { expires, signature } = request.query;
  const signed = expires !== undefined || signature !== undefined;
  if (
    signed &&
    signer.verify(request.params.videoId, expires ?? '', signature ?? '', Math.floor(request.receivedAt / 1000))
  )
    return null;
  const hasApiKey = request.headers.authorization !== undefined || request.headers['x-api-key'] !== undefined;
  if (signed && !hasApiKey) {
    throw new GatewayError(
      'not_found',
      'This video link is invalid or has expired; fetch the task again for a fresh video_url.',
    );
  }
  return authenticateApiKey(request, services.routing, request.receivedAt);
}
