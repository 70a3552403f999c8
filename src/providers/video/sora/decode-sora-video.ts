import { GatewayError } from '../../../core/gateway-error.js';
import { redactUpstreamText } from '../../openai/redact-upstream-text.js';
import { readObject, readText, readVendorJsonObject } from '../read-vendor-json.js';
import type { VideoGenerationJob, VideoVendorStatus } from '../video-vendor-adapter.js';

/** Sora error codes that mean the prompt or output was refused by moderation, not that generation broke. */
const contentFilterCodePattern = /moderation|content_policy|content_filter|safety/i;

/** Reads Sora's `VideoResource` id from the create answer. */
export function decodeSoraSubmit(bodyText: string): { vendorTaskId: string } {
  const id = readText(readVendorJsonObject(bodyText, 'Sora').id);
  if (!id) throw new GatewayError('server_error', 'Sora accepted the video but named no id.');
  return { vendorTaskId: id };
}

/**
 * Reads a `VideoResource` (openai-openapi.yaml): `queued` / `in_progress` with an approximate percentage,
 * `completed`, or `failed` with `{code, message}`. Progress is capped at 99 until completion so 100 means done.
 */
export function decodeSoraVideo(bodyText: string, job: VideoGenerationJob): VideoVendorStatus {
  const resource = readVendorJsonObject(bodyText, 'Sora');
  const status = readText(resource.status);
  const progress =
    typeof resource.progress === 'number' && Number.isFinite(resource.progress)
      ? Math.min(99, Math.max(0, Math.floor(resource.progress)))
      : null;
  switch (status) {
    case 'queued':
      return { state: 'queued', progress };
    case 'in_progress':
      return { state: 'in-progress', progress };
    case 'completed': {
      const id = readText(resource.id);
      if (!id) throw new GatewayError('server_error', 'Sora reported a completed video without an id.');
      const seconds = Number(readText(resource.seconds) ?? Number.NaN);
      return {
        state: 'completed',
        seconds: Number.isInteger(seconds) && seconds > 0 ? seconds : job.seconds,
        contentReference: id,
      };
    }
    case 'failed':
      return decodeSoraFailure(readObject(resource.error));
    default:
      throw new GatewayError('server_error', 'Sora reported a video status the gateway does not know.');
  }
}

function decodeSoraFailure(error: Record<string, unknown> | undefined): VideoVendorStatus {
  const vendorCode = readText(error?.code) ?? '';
  const vendorMessage = readText(error?.message);
  const message = vendorMessage ? redactUpstreamText(vendorMessage) : 'The video vendor could not generate this video.';
  return {
    state: 'failed',
    code: contentFilterCodePattern.test(vendorCode) ? 'content_filtered' : 'vendor_failed',
    message,
  };
}
