import { GatewayError } from '../../../core/gateway-error.js';
import type { VendorChannel } from '../../vendor-adapter.js';
import type { VideoVendorRequest } from '../video-vendor-adapter.js';

/**
 * The request that fetches a finished Veo video from its URI (`…/files/{id}:download?alt=media`). The URI comes from
 * the vendor's answer and the request carries the channel key, so it is sent only to the channel's own origin: any
 * other origin is refused (the key must not leak, and the gateway must not be steered to arbitrary addresses).
 */
export function encodeVeoDownload(uri: string, channel: VendorChannel): VideoVendorRequest {
  let target: URL;
  try {
    target = new URL(uri);
  } catch {
    throw refusedDownload();
  }
  if (target.origin !== new URL(channel.baseUrl).origin || target.username !== '' || target.password !== '')
    throw refusedDownload();
  return { method: 'GET', url: target.href, headers: { 'x-goog-api-key': channel.secret } };
}

function refusedDownload(): GatewayError {
  return new GatewayError(
    'server_error',
    'The video vendor named a download address outside its own API; the gateway refuses to fetch it.',
  );
}
