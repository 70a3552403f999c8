import type { FastifyInstance, FastifyRequest } from 'fastify';
import { GatewayError } from '../../core/gateway-error.js';
import type { GatewayServices } from '../gateway-services.js';
import { readMultipartForm } from '../read-multipart-form.js';
import { parseRequestBody } from '../../protocols/shared/parse-request-body.js';
import { observeUnmeteredRequest } from '../observe-unmetered-request.js';
import { resolveModel } from '../resolve-model.js';
import { videoSubmissionOperation } from '../video/video-submission-operation.js';
import {
  openAiVideoRequestSchema,
  parseVideoSize,
  type OpenAiVideoRequest,
} from '../video/openai-video-request-schema.js';
import { parseVideoListQuery } from '../video/parse-video-list-query.js';
import { refuseVideoInputReference } from '../video/refuse-video-input-reference.js';
import { renderOpenAiVideo } from '../video/render-openai-video.js';
import { requireVideoTasks } from '../video/require-video-tasks.js';
import { registerUnsupportedVideoRoutes } from './video-unsupported-routes.js';
import { registerVideoGenerationRoutes } from './video-generation-routes.js';

/**
 * Both video surfaces behind their API keys: the spec's task API and OpenAI's Videos API (create, retrieve, list,
 * delete; remix, edits, extensions and characters answer that they are unsupported). The content download, which
 * also takes a signed URL instead of a key, is registered outside the keyed scope (video-content-route).
 */
export function registerVideoRoutes(app: FastifyInstance, services: GatewayServices): void {
  registerVideoGenerationRoutes(app, services);
  registerUnsupportedVideoRoutes(app);

  // The official SDK always sends multipart; other clients send JSON, as OpenAI also accepts.
  app.post('/v1/videos', { config: { multipartBody: 'optional' } }, async (request) => {
    const videoTasks = requireVideoTasks(services);
    const body = await readOpenAiVideoRequest(request);
    const model = resolveModel(services.routing.current, request.principal, body.model, ['video']);
    const size = body.size ? { size: parseVideoSize(body.size) } : {};
    const task = await observeUnmeteredRequest(services, request, videoSubmissionOperation(model.id), () =>
      videoTasks.submit({
        principal: request.principal,
        model,
        prompt: body.prompt,
        requestedSeconds: body.seconds,
        surface: 'openai',
        ...size,
        requestId: request.id,
        clientIp: request.ip,
      }),
    );
    return renderOpenAiVideo(task);
  });

  app.get<{ Querystring: Record<string, string | undefined> }>('/v1/videos', async (request) => {
    const videoTasks = requireVideoTasks(services);
    const query = parseVideoListQuery(request.query);
    // `limit=0` still asks for one task, so `has_more` tells the truth about what a next page would hold.
    const page = await videoTasks.list(request.principal, {
      limit: Math.max(query.limit, 1),
      order: query.order,
      ...(query.after ? { after: query.after } : {}),
    });
    const tasks = page.tasks.slice(0, query.limit);
    const hasMore = query.limit === 0 ? page.tasks.length > 0 : page.hasMore;
    return {
      object: 'list',
      data: tasks.map(renderOpenAiVideo),
      first_id: tasks[0]?.id ?? null,
      last_id: tasks.at(-1)?.id ?? null,
      has_more: hasMore,
    };
  });

  app.get<{ Params: { videoId: string } }>('/v1/videos/:videoId', async (request) => {
    const videoTasks = requireVideoTasks(services);
    return renderOpenAiVideo(await videoTasks.get(request.principal, request.params.videoId));
  });

  app.delete<{ Params: { videoId: string } }>('/v1/videos/:videoId', async (request) => {
    const videoTasks = requireVideoTasks(services);
    await videoTasks.delete(request.principal, request.params.videoId);
    return { id: request.params.videoId, object: 'video.deleted', deleted: true };
  });
}

/** The create fields from a multipart form (the SDK) or a JSON body, with image references refused. */
async function readOpenAiVideoRequest(request: FastifyRequest): Promise<OpenAiVideoRequest> {
  if (request.isMultipart()) {
    const form = await readMultipartForm(request);
    refuseVideoInputReference([...Object.keys(form.fields), ...form.files.map((file) => file.fieldName)]);
    const unexpectedFile = form.files[0];
    if (unexpectedFile) {
      throw new GatewayError(
        'invalid_request_error',
        `The form field '${unexpectedFile.fieldName.slice(0, 100)}' must not be a file.`,
        { param: unexpectedFile.fieldName.slice(0, 100) },
      );
    }
    return parseRequestBody(openAiVideoRequestSchema, form.fields);
  }
  if (request.body !== null && typeof request.body === 'object') refuseVideoInputReference(Object.keys(request.body));
  return parseRequestBody(openAiVideoRequestSchema, request.body);
}
