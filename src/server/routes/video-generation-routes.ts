import type { FastifyInstance } from 'fastify';
import { resolveSecretPassphrase } from '../../accounts/secret-box.js';
import type { GatewayServices } from '../gateway-services.js';
import { parseRequestBody } from '../../protocols/shared/parse-request-body.js';
import { observeUnmeteredRequest } from '../observe-unmetered-request.js';
import { resolveModel } from '../resolve-model.js';
import { videoSubmissionOperation } from '../video/video-submission-operation.js';
import { renderSpecVideoSubmission, renderSpecVideoTask } from '../video/render-spec-video-task.js';
import { requireVideoTasks } from '../video/require-video-tasks.js';
import { specVideoRequestSchema } from '../video/spec-video-request-schema.js';
import { buildVideoContentUrl, createVideoContentSigner } from '../video/video-content-signer.js';
import { videoPublicOriginOf } from '../video/video-public-origin.js';

/** The spec's task API: `POST /v1/videos/generations` and `GET /v1/videos/generations/{task_id}` (spec §4.9, §4.10). */
export function registerVideoGenerationRoutes(app: FastifyInstance, services: GatewayServices): void {
  const signer = createVideoContentSigner(resolveSecretPassphrase(services.config));

  app.post('/v1/videos/generations', async (request) => {
    const videoTasks = requireVideoTasks(services);
    const body = parseRequestBody(specVideoRequestSchema, request.body);
    const model = resolveModel(services.routing.current, request.principal, body.model, ['video']);
    const task = await observeUnmeteredRequest(services, request, videoSubmissionOperation(model.id), () =>
      videoTasks.submit({
        principal: request.principal,
        model,
        prompt: body.prompt,
        requestedSeconds: body.duration,
        surface: 'spec',
        requestId: request.id,
        clientIp: request.ip,
      }),
    );
    return renderSpecVideoSubmission(task);
  });

  app.get<{ Params: { taskId: string } }>('/v1/videos/generations/:taskId', async (request) => {
    const videoTasks = requireVideoTasks(services);
    const task = await videoTasks.get(request.principal, request.params.taskId);
    const origin = videoPublicOriginOf(request, services.config);
    return renderSpecVideoTask(task, (view) => buildVideoContentUrl(origin, signer, view.id, view.expiresAt));
  });
}
