import { GatewayError } from '../../../core/gateway-error.js';
import { mapGeminiFailure } from '../../gemini/map-gemini-failure.js';
import type { VendorChannel } from '../../vendor-adapter.js';
import type { VideoVendorAdapter } from '../video-vendor-adapter.js';
import { isPortraitSize } from '../video-size.js';
import { decodeVeoOperation, decodeVeoSubmit, isVeoOperationName } from './decode-veo-operation.js';
import { encodeVeoDownload } from './encode-veo-download.js';
import { veoSecondsFor, veoSizesFor } from './veo-model-capabilities.js';

const keyHeaders = (channel: VendorChannel): Record<string, string> => ({ 'x-goog-api-key': channel.secret });

/**
 * Google Veo through the Gemini API (`protocol: 'gemini'`, base URL ending in `/v1beta` like the chat adapter's):
 * `:predictLongRunning` starts an operation, `GET {base}/{operation name}` polls it. The Gemini API has no cancel.
 */
export const veoVideoAdapter: VideoVendorAdapter = {
  protocol: 'gemini',
  supportedSeconds: veoSecondsFor,
  supportedSizes: veoSizesFor,
  encodeSubmit(job, channel) {
    const body = {
      instances: [{ prompt: job.prompt }],
      parameters: {
        aspectRatio: isPortraitSize(job) ? '9:16' : '16:9',
        durationSeconds: job.seconds,
        resolution: '720p',
        sampleCount: 1,
      },
    };
    return {
      method: 'POST',
      url: `${channel.baseUrl}/models/${encodeURIComponent(job.upstreamModelId)}:predictLongRunning`,
      headers: { ...keyHeaders(channel), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    };
  },
  decodeSubmit: decodeVeoSubmit,
  encodePoll(vendorTaskId, channel) {
    if (!isVeoOperationName(vendorTaskId))
      throw new GatewayError('server_error', 'The stored Veo operation name is not one the gateway can poll.');
    return { method: 'GET', url: `${channel.baseUrl}/${vendorTaskId}`, headers: keyHeaders(channel) };
  },
  decodePoll: decodeVeoOperation,
  // Veo makes no thumbnail or spritesheet: only the video variant exists.
  encodeDownload: (contentReference, channel, variant) =>
    variant === 'video' ? encodeVeoDownload(contentReference, channel) : undefined,
  mapFailure: mapGeminiFailure,
};
