import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../../core/gateway-error.js';
import type { SpeechRequestFields } from '../../core/speech-request.js';
import { estimateSpeechRequest } from '../../protocols/openai-endpoints/estimate-speech-request.js';
import {
  speechFieldRules,
  speechRequestSchema,
  type SpeechRequest,
} from '../../protocols/openai-endpoints/speech-request-schema.js';
import { parseRequestBody } from '../../protocols/shared/parse-request-body.js';
import type { CatalogModel } from '../../routing/catalog-model.js';
import { forwardMetered } from '../forward-metered.js';
import { createJsonBodyBuilder } from '../forwarded-fields/create-json-body-builder.js';
import { planForwardedFields } from '../forwarded-fields/plan-forwarded-fields.js';
import type { GatewayServices } from '../gateway-services.js';
import { resolveModel } from '../resolve-model.js';

/**
 * `POST /v1/audio/speech`: text to speech. OpenAI-wire channels get the body and stream the audio bytes (or the
 * `speech.audio.*` events of `stream_format: "sse"`) back as they come; Gemini TTS channels get a generateContent
 * with AUDIO output, answered as WAV or raw PCM (see src/providers/gemini/gemini-speech.ts).
 */
export function registerAudioSpeechRoute(app: FastifyInstance, services: GatewayServices): void {
  app.post('/v1/audio/speech', async (request, reply) => {
    const body = parseRequestBody(speechRequestSchema, request.body);
    const routing = services.routing.current;
    const model = resolveModel(routing, request.principal, body.model, ['speech']);
    refuseWhatTheModelCannotDo(body, model);
    const plan = planForwardedFields({
      body,
      rules: speechFieldRules,
      modelId: model.id,
      channels: routing.channelsFor(model.id),
    });
    const sse = body.stream_format === 'sse';
    await forwardMetered({
      reply,
      services,
      request,
      model,
      endpoint: 'audio.speech',
      estimate: estimateSpeechRequest(body, model.speechInputUnit ?? 'tokens'),
      kind: 'openai-wire',
      upstreamPath: '/audio/speech',
      buildBody: createJsonBodyBuilder(request, plan),
      acceptsChannel: plan.acceptsChannel,
      stream: sse,
      clientWantsUsage: sse,
      translation: { kind: 'speech', request: speechFieldsOf(body) },
    });
    return reply;
  });
}

/** True for OpenAI's first TTS models, which take neither `instructions` nor `stream_format: "sse"` (the API description). */
function isTtsOneModel(model: CatalogModel): boolean {
  const id = model.aliasOf ?? model.id;
  return id === 'tts-1' || id === 'tts-1-hd' || id.startsWith('tts-1-');
}

/** 400s for what the catalog says the model cannot do, before anything is held or sent. */
function refuseWhatTheModelCannotDo(body: SpeechRequest, model: CatalogModel): void {
  if (isTtsOneModel(model)) {
    if (body.instructions !== undefined)
      throw new GatewayError('invalid_request_error', `'instructions' is not supported with the model '${model.id}'.`, {
        param: 'instructions',
      });
    if (body.stream_format === 'sse')
      throw new GatewayError(
        'invalid_request_error',
        `'stream_format: "sse"' is not supported with the model '${model.id}'; use 'audio'.`,
        { param: 'stream_format' },
      );
  }
  const voices = model.speechVoices;
  const voice = body.voice;
  // Case-insensitive: Gemini's voices are capitalised (Kore), OpenAI clients send them in lower case.
  if (typeof voice === 'string' && voices && !voices.some((known) => known.toLowerCase() === voice.toLowerCase()))
    throw new GatewayError(
      'invalid_request_error',
      `Invalid value for 'voice': '${voice}' is not a voice of '${model.id}'. Supported voices: ${voices.join(', ')}.`,
      { param: 'voice' },
    );
}

/** The request as a translated channel reads it: defaults applied, a custom voice by its id. */
function speechFieldsOf(body: SpeechRequest): SpeechRequestFields {
  return {
    model: body.model,
    input: body.input,
    voice: typeof body.voice === 'string' ? body.voice : body.voice.id,
    responseFormat: body.response_format ?? 'mp3',
    ...(body.instructions === undefined ? {} : { instructions: body.instructions }),
    ...(body.speed === undefined ? {} : { speed: body.speed }),
    sse: body.stream_format === 'sse',
  };
}
