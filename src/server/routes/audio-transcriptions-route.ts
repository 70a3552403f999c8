import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../../core/gateway-error.js';
import { estimateTranscriptionRequest } from '../../protocols/openai-endpoints/estimate-transcription-request.js';
import { encodeUpstreamForm } from '../encode-upstream-form.js';
import { forwardMetered } from '../forward-metered.js';
import type { GatewayServices } from '../gateway-services.js';
import { readMultipartForm } from '../read-multipart-form.js';
import { parseTranscriptionForm } from '../../protocols/openai-endpoints/transcription-request-schema.js';
import { readWavDuration } from '../read-wav-duration.js';
import { resolveModel } from '../resolve-model.js';

/** `POST /v1/audio/transcriptions`: multipart upload; json, verbose_json, text, srt or vtt back (spec 4.6). */
export function registerAudioTranscriptionsRoute(app: FastifyInstance, services: GatewayServices): void {
  app.post('/v1/audio/transcriptions', { config: { multipartBody: true } }, async (request, reply) => {
    const form = await readMultipartForm(request);
    const fields = parseTranscriptionForm(form);
    const audioFile = form.files.find((file) => file.fieldName === 'file');
    if (!audioFile) {
      throw new GatewayError('invalid_request_error', "Missing required parameter: 'file'.", { param: 'file' });
    }
    const model = resolveModel(services.routing.current, request.principal, fields.model, ['audio']);
    // Held by what was really uploaded, never by header fields that could lie; charged by the vendor's reported
    // duration or tokens, this measure only when it reports none (docs/BILLING.md, audio).
    const audio = readWavDuration(audioFile.data);
    if (audio.kind === 'implausible') {
      throw new GatewayError(
        'invalid_request_error',
        `The WAV header of 'file' describes no real audio: ${audio.reason}.`,
        { param: 'file' },
      );
    }
    await forwardMetered({
      reply,
      services,
      request,
      model,
      endpoint: 'audio.transcriptions',
      estimate: estimateTranscriptionRequest(fields),
      uploadedBytes: audioFile.data.length,
      uploadedAudioSeconds: audio.kind === 'measured' ? audio.seconds : undefined,
      kind: 'openai-wire',
      upstreamPath: '/audio/transcriptions',
      buildBody: (upstreamModelId) => encodeUpstreamForm(form, upstreamModelId),
      stream: false,
      clientWantsUsage: false,
    });
    return reply;
  });
}
