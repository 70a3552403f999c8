import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../../core/gateway-error.js';
import { estimateImageRequest } from '../../protocols/openai-endpoints/estimate-image-request.js';
import { checkImageSize } from '../check-image-size.js';
import { encodeUpstreamForm } from '../encode-upstream-form.js';
import { forwardMetered } from '../forward-metered.js';
import { createJsonBodyBuilder } from '../forwarded-fields/create-json-body-builder.js';
import { planForwardedFields } from '../forwarded-fields/plan-forwarded-fields.js';
import type { GatewayServices } from '../gateway-services.js';
import { readMultipartForm } from '../read-multipart-form.js';
import { checkImageModelOptions } from '../check-image-model-options.js';
import {
  imageEditFieldRules,
  imageGenerationFieldRules,
  imageGenerationRequestSchema,
} from '../../protocols/openai-endpoints/image-request-schemas.js';
import { parseImageEditForm } from '../../protocols/openai-endpoints/parse-image-edit-form.js';
import { parseRequestBody } from '../../protocols/shared/parse-request-body.js';
import { resolveModel } from '../resolve-model.js';

/** `POST /v1/images/generations` (JSON) and `POST /v1/images/edits` (multipart) (spec 4.4, 4.5). */
export function registerImageRoutes(app: FastifyInstance, services: GatewayServices): void {
  app.post('/v1/images/generations', async (request, reply) => {
    const body = parseRequestBody(imageGenerationRequestSchema, request.body);
    const routing = services.routing.current;
    const model = resolveModel(routing, request.principal, body.model, ['image']);
    checkImageSize(model, body.size);
    checkImageModelOptions(model, body);
    const plan = planForwardedFields({
      body,
      rules: imageGenerationFieldRules,
      modelId: model.id,
      channels: routing.channelsFor(model.id),
    });
    await forwardMetered({
      reply,
      services,
      request,
      model,
      endpoint: 'images.generations',
      estimate: estimateImageRequest(body),
      kind: 'openai-wire',
      upstreamPath: '/images/generations',
      buildBody: createJsonBodyBuilder(request, plan),
      acceptsChannel: plan.acceptsChannel,
      stream: false,
      clientWantsUsage: false,
    });
    return reply;
  });

  app.post('/v1/images/edits', { config: { multipartBody: true } }, async (request, reply) => {
    const form = await readMultipartForm(request);
    const fields = parseImageEditForm(form);
    const routing = services.routing.current;
    const model = resolveModel(routing, request.principal, fields.model, ['image']);
    if (model.kind === 'image' && !model.supportsImageEdits) {
      throw new GatewayError('invalid_request_error', `The model '${model.id}' does not support image edits.`, {
        param: 'model',
      });
    }
    checkImageSize(model, fields.size);
    checkImageModelOptions(model, fields);
    const plan = planForwardedFields({
      body: form.fields,
      rules: imageEditFieldRules,
      modelId: model.id,
      channels: routing.channelsFor(model.id),
    });
    await forwardMetered({
      reply,
      services,
      request,
      model,
      endpoint: 'images.edits',
      estimate: estimateImageRequest(fields),
      uploadedBytes: form.files.reduce((total, file) => total + file.data.length, 0),
      kind: 'openai-wire',
      upstreamPath: '/images/edits',
      buildBody: (upstreamModelId) => encodeUpstreamForm(form, upstreamModelId),
      acceptsChannel: plan.acceptsChannel,
      premiumPriceRatios: plan.premiumPriceRatios,
      stream: false,
      clientWantsUsage: false,
    });
    return reply;
  });
}
