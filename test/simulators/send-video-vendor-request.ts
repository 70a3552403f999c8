// Sends a request built by a video vendor adapter, as the task layer will, so simulator tests prove adapter and
// simulator agree on the wire.
import { fetch, type Response } from 'undici';
import type { VideoVendorRequest } from '../../src/providers/video/video-vendor-adapter.js';

/** Sends the request with undici (multipart bodies keep their FormData). */
export function sendVideoVendorRequest(request: VideoVendorRequest): Promise<Response> {
  return fetch(request.url, {
    method: request.method,
    headers: request.headers,
    ...(request.body === undefined ? {} : { body: request.body }),
  });
}
