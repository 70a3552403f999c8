import { FormData } from 'undici';
import { azureOpenAiQuirks } from '../../azure/azure-openai-target.js';
import type { VendorChannel } from '../../vendor-adapter.js';
import { mapOpenAiUpstreamFailure } from '../../openai/map-openai-upstream-failure.js';
import { openAiQuirks, type OpenAiWireQuirks } from '../../openai/openai-wire-quirks.js';
import type { VideoVendorAdapter } from '../video-vendor-adapter.js';
import { formatVideoSize } from '../video-size.js';
import { decodeSoraSubmit, decodeSoraVideo } from './decode-sora-video.js';
import { soraSecondsFor, soraSizesFor } from './sora-model-capabilities.js';

/**
 * OpenAI's Videos API (Sora 2) over an OpenAI-wire channel whose quirks decide the URL and key header.
 * There is no cancel: `DELETE /videos/{id}` removes only a completed or failed video (openai-openapi.yaml).
 */
export function createSoraVideoAdapter(
  quirks: OpenAiWireQuirks,
  channelForUrls: (channel: VendorChannel) => VendorChannel = (channel) => channel,
): VideoVendorAdapter {
  const urlFor = (channel: VendorChannel, path: string): string => quirks.urlFor(channelForUrls(channel), '', path);
  const videoPath = (vendorTaskId: string): string => `/videos/${encodeURIComponent(vendorTaskId)}`;
  return {
    protocol: quirks.protocol,
    supportedSeconds: soraSecondsFor,
    supportedSizes: soraSizesFor,
    encodeSubmit(job, channel) {
      // Multipart, as OpenAI's SDK always sends it; `seconds` is a string enum on the wire.
      const form = new FormData();
      form.set('model', job.upstreamModelId);
      form.set('prompt', job.prompt);
      form.set('seconds', String(job.seconds));
      form.set('size', formatVideoSize(job));
      return { method: 'POST', url: urlFor(channel, '/videos'), headers: quirks.authHeaders(channel), body: form };
    },
    decodeSubmit: decodeSoraSubmit,
    encodePoll: (vendorTaskId, channel) => ({
      method: 'GET',
      url: urlFor(channel, videoPath(vendorTaskId)),
      headers: quirks.authHeaders(channel),
    }),
    decodePoll: decodeSoraVideo,
    encodeDownload: (contentReference, channel, variant) => ({
      method: 'GET',
      url: `${urlFor(channel, `${videoPath(contentReference)}/content`)}?variant=${variant}`,
      headers: { ...quirks.authHeaders(channel), accept: 'application/binary' },
    }),
    mapFailure: (status, bodyText, retryAfter) => mapOpenAiUpstreamFailure(status, bodyText, retryAfter),
  };
}

/** Sora on OpenAI itself and OpenAI-compatible channels (`protocol: 'openai'`, base URL ending in `/v1`). */
export const soraVideoAdapter = createSoraVideoAdapter(openAiQuirks);

/**
 * Sora 2 on Azure OpenAI (`protocol: 'azure'`): only the `/openai/v1/videos` surface serves it, whatever
 * `apiVersion` the channel sets for chat, so the URL is always built as for `apiVersion: v1`.
 */
export const azureSoraVideoAdapter = createSoraVideoAdapter(azureOpenAiQuirks, (channel) => ({
  ...channel,
  settings: { ...channel.settings, apiVersion: 'v1' },
}));
