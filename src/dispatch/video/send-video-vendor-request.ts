import type { Dispatcher } from 'undici';
import { readBodyWithinLimit } from '../../providers/remote-image/read-body-within-limit.js';
import type { VideoVendorRequest } from '../../providers/video/video-vendor-adapter.js';
import { discardUpstreamBody } from '../release-upstream-body.js';
import { sendUpstreamRequest } from '../send-upstream-request.js';

/** How video vendor requests go out: the gateway's connection pools and its upstream timeouts. */
export interface VideoDispatchOptions {
  dispatcher: Dispatcher;
  /** longest wait for a vendor's response headers, in milliseconds */
  headersTimeoutMs: number;
  /** longest silence between two body chunks, in milliseconds */
  bodyTimeoutMs: number;
}

/** A vendor's whole answer to a submit, poll or cancel. */
export interface VideoVendorAnswer {
  status: number;
  bodyText: string;
  /** the `retry-after` header, when the vendor sent one */
  retryAfter: string | undefined;
}

/** Largest submit, poll or cancel answer read, in bytes: these are small JSON objects, never a video. */
export const videoVendorAnswerMaxBytes = 1024 * 1024;

/**
 * Sends a submit, poll or cancel to a video vendor and reads the whole answer (up to `videoVendorAnswerMaxBytes`);
 * throws on transport failures and on a larger answer. The body is read to its end or destroyed with an 'error'
 * listener, so a vendor that cuts its answer short never raises an uncaught error. Downloads use openVideoDownload.
 */
export async function sendVideoVendorRequest(
  request: VideoVendorRequest,
  options: VideoDispatchOptions,
  signal?: AbortSignal,
): Promise<VideoVendorAnswer> {
  const response = await sendUpstreamRequest(
    { url: request.url, headers: request.headers, body: request.body, method: request.method },
    {
      dispatcher: options.dispatcher,
      signal,
      headersTimeoutMs: options.headersTimeoutMs,
      bodyTimeoutMs: options.bodyTimeoutMs,
    },
  );
  response.body.on('error', () => undefined);
  const declared = Number(headerOf(response.headers['content-length']));
  const bytes =
    declared > videoVendorAnswerMaxBytes
      ? undefined
      : await readBodyWithinLimit(response.body, videoVendorAnswerMaxBytes);
  if (bytes === undefined) {
    discardUpstreamBody(response.body);
    throw new Error(
      `the video vendor answered ${response.statusCode} with more than ${videoVendorAnswerMaxBytes} bytes`,
    );
  }
  return {
    status: response.statusCode,
    bodyText: bytes.toString('utf8'),
    retryAfter: headerOf(response.headers['retry-after']),
  };
}

function headerOf(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
