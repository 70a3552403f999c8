import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import type { VideoVendorRequest } from '../../providers/video/video-vendor-adapter.js';
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

/** A vendor's answer to a download, its body still streaming. */
export interface VideoVendorDownload {
  status: number;
  body: Readable;
  contentType: string;
  /** bytes, when the vendor said */
  length: number | undefined;
}

/** Sends a submit, poll or cancel to a video vendor and reads the whole answer; throws on transport failures. */
export async function sendVideoVendorRequest(request: VideoVendorRequest, options: VideoDispatchOptions, signal?: AbortSignal): Promise<VideoVendorAnswer> {
  const response = await send(request, options, signal);
  const bodyText = await response.body.text();
  return { status: response.statusCode, bodyText, retryAfter: headerOf(response.headers['retry-after']) };
}

/** Starts a download from a video vendor; the caller consumes or destroys the body. Throws on transport failures. */
export async function openVideoVendorDownload(request: VideoVendorRequest, options: VideoDispatchOptions, signal?: AbortSignal): Promise<VideoVendorDownload> {
  const response = await send(request, options, signal);
  const length = Number(headerOf(response.headers['content-length']));
  return {
    status: response.statusCode,
    body: response.body,
    contentType: headerOf(response.headers['content-type']) ?? 'application/octet-stream',
    length: Number.isSafeInteger(length) && length >= 0 ? length : undefined,
  };
}

function send(request: VideoVendorRequest, options: VideoDispatchOptions, signal: AbortSignal | undefined): Promise<Dispatcher.ResponseData> {
  return sendUpstreamRequest(
    { url: request.url, headers: request.headers, body: request.body, method: request.method },
    { dispatcher: options.dispatcher, signal, headersTimeoutMs: options.headersTimeoutMs, bodyTimeoutMs: options.bodyTimeoutMs },
  );
}

function headerOf(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
