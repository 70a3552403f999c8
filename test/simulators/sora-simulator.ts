// A loopback simulator of OpenAI's Videos API (Sora 2): create (multipart or JSON), retrieve, download content,
// delete. Each status read moves a video one step (no real waiting); prompt markers pick the outcome and faults
// (video-simulator-outcome.ts). Every route, content download included, requires the channel's bearer key.
import multipart from '@fastify/multipart';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { readMultipartForm } from './openai-simulator-multipart.js';
import type { RecordedRequest } from './openai-simulator.js';
import { invalidApiKeyError, invalidRequest, modelStatusError, SimulatedError } from './openai-simulator-errors.js';
import { requireObjectBody, type RequestBody } from './openai-simulator-validation.js';
import { newSoraVideoId, renderSoraVideo, type SoraVideo } from './sora-simulator-store.js';
import { validateSoraCreate } from './sora-simulator-validation.js';
import { createTinyMp4, tinyJpeg, tinyWebp } from './video-simulator-mp4.js';
import { readVideoOutcome, videoJobStage } from './video-simulator-outcome.js';
import { startSignedVideoStorage, type SignedVideoStorage } from './video-simulator-signed-storage.js';

/** A running simulator. */
export interface SoraSimulator {
  /** base URL including `/v1` (a channel's base URL) */
  url: string;
  /** every request received, in order (multipart bodies as their fields) */
  requests: RecordedRequest[];
  /** the videos it holds, by id */
  videos: Map<string, SoraVideo>;
  /** the signed storage a `sim-video-download-*` content download redirects to (another loopback origin) */
  storage: SignedVideoStorage;
  /** clears the recorded requests */
  reset(): void;
  close(): Promise<void>;
}

/** How to start the simulator. */
export interface SoraSimulatorOptions {
  /** the key the gateway must send as `Authorization: Bearer <apiKey>` */
  apiKey: string;
  /** status reads after which a job ends (a prompt's `sim-video-polls-<n>` overrides it); default 2 */
  pollsUntilDone?: number;
  /** Unix milliseconds for `created_at` / `completed_at`; default Date.now */
  clock?: () => number;
}

/** Starts the simulator on 127.0.0.1 and a free port. */
export async function startSoraSimulator(options: SoraSimulatorOptions): Promise<SoraSimulator> {
  const requests: RecordedRequest[] = [];
  const videos = new Map<string, SoraVideo>();
  const pollsUntilDone = options.pollsUntilDone ?? 2;
  const nowInSeconds = (): number => Math.floor((options.clock ?? Date.now)() / 1000);
  const server = Fastify({ logger: false, forceCloseConnections: true });
  const storage = await startSignedVideoStorage();
  await server.register(multipart, { limits: { fileSize: 32 * 1024 * 1024, files: 1 } });

  const record = (request: FastifyRequest, body: unknown): void => {
    const [path = '', query] = request.url.split('?');
    requests.push({ method: request.method, path, ...(query ? { query } : {}), headers: { ...request.headers }, body });
  };
  const requireKey = (request: FastifyRequest): void => {
    if (request.headers.authorization !== `Bearer ${options.apiKey}`) throw invalidApiKeyError();
  };
  const findVideo = (request: FastifyRequest): SoraVideo => {
    const { id } = request.params as { id: string };
    const video = videos.get(id);
    if (!video) throw new SimulatedError(404, `Video with id '${id}' not found.`, { code: 'video_not_found' });
    return video;
  };

  server.post('/v1/videos', async (request, reply) => {
    const body: RequestBody = request.isMultipart()
      ? (await readMultipartForm(request)).body
      : requireObjectBody(request.body);
    record(request, body);
    requireKey(request);
    const create = validateSoraCreate(body);
    const outcome = readVideoOutcome(create.prompt);
    if (outcome.submitFailureStatus) throw modelStatusError(outcome.submitFailureStatus, create.model, 1);
    const video: SoraVideo = {
      id: newSoraVideoId(),
      request: create,
      outcome,
      polls: 0,
      pollFailureAnswered: false,
      createdAt: nowInSeconds(),
      completedAt: null,
    };
    videos.set(video.id, video);
    return reply.send(renderSoraVideo(video, pollsUntilDone));
  });

  server.get('/v1/videos/:id', async (request, reply) => {
    record(request, undefined);
    requireKey(request);
    const video = findVideo(request);
    if (video.outcome.vanishes && video.polls >= 1) {
      videos.delete(video.id);
      throw new SimulatedError(404, `Video with id '${video.id}' not found.`, { code: 'video_not_found' });
    }
    if (video.outcome.firstPollFailureStatus && !video.pollFailureAnswered) {
      video.pollFailureAnswered = true;
      throw modelStatusError(video.outcome.firstPollFailureStatus, video.request.model, 1);
    }
    video.polls += 1;
    if (videoJobStage(video.polls, video.outcome.pollsUntilDone ?? pollsUntilDone, video.outcome).stage === 'done')
      video.completedAt ??= nowInSeconds();
    return reply.send(renderSoraVideo(video, pollsUntilDone, options.apiKey));
  });

  server.get('/v1/videos/:id/content', async (request, reply) => {
    record(request, undefined);
    requireKey(request);
    const video = findVideo(request);
    const variant = (request.query as { variant?: string }).variant ?? 'video';
    if (renderSoraVideo(video, pollsUntilDone).status !== 'completed') {
      throw new SimulatedError(404, `Video '${video.id}' has no content: it is not completed.`, {
        code: 'video_not_ready',
      });
    }
    const fault = variant === 'video' ? video.outcome.downloadFault : undefined;
    switch (fault) {
      case undefined:
        return sendVariant(reply, variant, Number(video.request.seconds));
      case '404':
        throw new SimulatedError(404, `Video '${video.id}' content was not found.`, { code: 'video_not_found' });
      case '500':
        throw modelStatusError(500, video.request.model);
      case 'no-location':
        return reply.code(302).send();
      case 'redirect':
      case 'loop':
      case 'break':
      case 'break-once':
      case 'oversize':
      case 'oversize-unannounced':
        return reply
          .code(302)
          .header('location', storage.sign(video.id, createTinyMp4(Number(video.request.seconds)), fault))
          .send();
      default: {
        const unknownFault: never = fault;
        throw new Error(`unknown download fault ${String(unknownFault)}`);
      }
    }
  });

  server.delete('/v1/videos/:id', async (request, reply) => {
    record(request, undefined);
    requireKey(request);
    const video = findVideo(request);
    const status = renderSoraVideo(video, pollsUntilDone).status;
    if (status !== 'completed' && status !== 'failed')
      throw invalidRequest('Only completed or failed videos can be deleted.', null);
    videos.delete(video.id);
    return reply.send({ id: video.id, object: 'video.deleted', deleted: true });
  });

  server.setNotFoundHandler((request, reply) =>
    reply.code(404).send(invalidRequest(`Invalid URL (${request.method} ${request.url})`, null).toBody()),
  );
  server.setErrorHandler((error: Error, _request, reply) => {
    if (error instanceof SimulatedError) return reply.code(error.status).headers(error.headers).send(error.toBody());
    return reply.code(400).send(invalidRequest(`We could not parse your request: ${error.message}`, null).toBody());
  });
  await server.listen({ host: '127.0.0.1', port: 0 });
  const address = server.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    videos,
    storage,
    reset: () => {
      requests.length = 0;
      storage.requests.length = 0;
    },
    close: async () => {
      await server.close();
      await storage.close();
    },
  };
}

function sendVariant(reply: FastifyReply, variant: string, seconds: number): FastifyReply {
  switch (variant) {
    case 'video':
      return reply.header('content-type', 'video/mp4').send(createTinyMp4(seconds));
    case 'thumbnail':
      return reply.header('content-type', 'image/webp').send(tinyWebp);
    case 'spritesheet':
      return reply.header('content-type', 'image/jpeg').send(tinyJpeg);
    default:
      throw invalidRequest(
        `Invalid value: '${variant}'. Supported values are: 'video', 'thumbnail', and 'spritesheet'.`,
        'variant',
        'invalid_value',
      );
  }
}
