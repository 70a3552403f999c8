import { request, type Dispatcher, type FormData } from 'undici';
import type { UpstreamAbortSignal } from './upstream-abort-signal.js';

/** An HTTP request ready for a vendor, whatever its protocol. */
export interface UpstreamHttpRequest {
  url: string;
  /** the vendor's authentication and protocol headers; they win over the defaults */
  headers: Record<string, string>;
  /** a JSON text (or its UTF-8 bytes), or multipart form data; absent for a GET or DELETE */
  body: string | Uint8Array | FormData | undefined;
  /** default POST (every chat, image and audio call); video task polls, downloads and cancels use GET and DELETE */
  method?: 'GET' | 'POST' | 'DELETE';
}

/** Sends one request to a vendor: the only place the gateway calls upstreams. Only the gateway's own headers go out, never the client's. */
export function sendUpstreamRequest(
  upstreamRequest: UpstreamHttpRequest,
  options: { dispatcher: Dispatcher; signal: AbortSignal | UpstreamAbortSignal | undefined; headersTimeoutMs: number; bodyTimeoutMs: number },
): Promise<Dispatcher.ResponseData> {
  const headers: Record<string, string> = { accept: 'application/json, text/event-stream' };
  if (typeof upstreamRequest.body === 'string' || upstreamRequest.body instanceof Uint8Array) headers['content-type'] = 'application/json';
  return request(upstreamRequest.url, {
    method: upstreamRequest.method ?? 'POST',
    headers: { ...headers, ...upstreamRequest.headers },
    body: upstreamRequest.body,
    dispatcher: options.dispatcher,
    signal: options.signal,
    headersTimeout: options.headersTimeoutMs,
    bodyTimeout: options.bodyTimeoutMs,
  });
}
