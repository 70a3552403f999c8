import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../../core/gateway-error.js';
import { checkImageSize } from '../check-image-size.js';
import { encodeUpstreamForm } from '../encode-upstream-form.js';
import { forwardMetered } from '../forward-metered.js';
import type { GatewayServices } from '../gateway-services.js';
import { readMultipartForm } from '../read-multipart-form.js';
import { imageEditFieldsSchema, imageGenerationRequestSchema } from '../request-schemas/image-request-schemas.js';
import { parseRequestBody } from '../request-schemas/parse-request-body.js';
import { resolveModel } from '../resolve-model.js';

/** `POST /v1/images/generations` (JSON) and `POST /v1/images/edits` (multipart) (spec 4.4, 4.5). */
export function registerImageRoutes(app: FastifyInstance, services: GatewayServices): void {
  app.post('/v1/images/generations', async (request, reply) => {
    const body = parseRequestBody(imageGenerationRequestSchema, request.body);
    const model = resolveModel(services.routing.current, request.principal, body.model, ['image']);
    checkImageSize(model, body.size);
    await forwardMetered({
      reply,
      services,
      request,
      model,
      endpoint: 'images.generations',
      body,
      upstreamPath: '/images/generations',
      buildBody: (upstreamModelId) => JSON.stringify({ ...body, model: upstreamModelId }),
      stream: false,
      clientWantsUsage: false,
    });
    return reply;
  });

  app.post('/v1/images/edits', { config: { multipartBody: true } }, async (request, reply) => {
    const form = await readMultipartForm(request);
    const fields = parseRequestBody(imageEditFieldsSchema, form.fields);
    if (!form.files.some((file) => file.fieldName === 'image' || file.fieldName === 'image[]')) {
      throw new GatewayError('invalid_request_error', "Missing required parameter: 'image'.", { param: 'image' });
    }
    const model = resolveModel(services.routing.current, request.principal, fields.model, ['image']);
    if (model.kind === 'image' && !model.supportsImageEdits) {
      throw new GatewayError('invalid_request_error', `The model '${model.id}' does not support image edits.`, { param: 'model' });
    }
    checkImageSize(model, fields.size);
    await forwardMetered({
      reply,
      services,
      request,
      model,
      endpoint: 'images.edits',
      body: fields,
      uploadedBytes: form.files.reduce((total, file) => total + file.data.length, 0),
      upstreamPath: '/images/edits',
      buildBody: (upstreamModelId) => encodeUpstreamForm(form, upstreamModelId),
      stream: false,
      clientWantsUsage: false,
    });
    return reply;
  });
}
