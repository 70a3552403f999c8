import { GatewayError } from '../../../core/gateway-error.js';
import { redactUpstreamText } from '../../openai/redact-upstream-text.js';
import { readObject, readText, readVendorJsonObject } from '../read-vendor-json.js';
import type { VideoGenerationJob, VideoVendorStatus } from '../video-vendor-adapter.js';

// An operation name is put into the poll URL after the base, so only plain path segments are accepted.
const operationNamePattern = /^models\/[A-Za-z0-9._-]+\/operations\/[A-Za-z0-9._-]+$/;

/** Reads the long-running operation's name (`models/{model}/operations/{id}`) from the submit answer. */
export function decodeVeoSubmit(bodyText: string): { vendorTaskId: string } {
  const name = readText(readVendorJsonObject(bodyText, 'Veo').name);
  if (!name || !operationNamePattern.test(name) || name.includes('..')) {
    throw new GatewayError('server_error', 'Veo accepted the video but named no usable operation.');
  }
  return { vendorTaskId: name };
}

/** True when the operation name is one decodeVeoSubmit would have accepted (poll URLs are built only from these). */
export function isVeoOperationName(name: string): boolean {
  return operationNamePattern.test(name) && !name.includes('..');
}

/**
 * Reads a Gemini long-running operation: `done:false` is in progress (Veo gives no percentage), `error` failed,
 * `done:true` with a sample completed, and `done:true` without one failed — `content_filtered` when Google's
 * responsible-AI filter removed the video (`raiMediaFilteredCount`), which must never be billed as a video.
 */
export function decodeVeoOperation(bodyText: string, job: VideoGenerationJob): VideoVendorStatus {
  const operation = readVendorJsonObject(bodyText, 'Veo');
  const error = readObject(operation.error);
  if (error) {
    const message = readText(error.message);
    return {
      state: 'failed',
      code: 'vendor_failed',
      message: message ? redactUpstreamText(message) : 'The video vendor could not generate this video.',
    };
  }
  if (operation.done !== true) return { state: 'in-progress', progress: null };
  const generated = readObject(readObject(operation.response)?.generateVideoResponse);
  const samples = Array.isArray(generated?.generatedSamples) ? generated.generatedSamples : [];
  const uri = readText(readObject(readObject(samples[0])?.video)?.uri);
  if (uri) return { state: 'completed', seconds: job.seconds, contentReference: uri };
  const filteredCount = typeof generated?.raiMediaFilteredCount === 'number' ? generated.raiMediaFilteredCount : 0;
  const reasons = Array.isArray(generated?.raiMediaFilteredReasons)
    ? generated.raiMediaFilteredReasons.filter((reason): reason is string => typeof reason === 'string')
    : [];
  if (filteredCount > 0 || reasons.length > 0) {
    const reason = reasons[0];
    // The spec's surface shows only the message, so it must say the video was filtered whatever Google's reason says.
    const filtered = 'The video vendor filtered the generated video for safety reasons';
    return {
      state: 'failed',
      code: 'content_filtered',
      message: reason ? `${filtered}: ${redactUpstreamText(reason)}` : `${filtered}.`,
    };
  }
  return { state: 'failed', code: 'vendor_failed', message: 'The video vendor finished without producing a video.' };
}
