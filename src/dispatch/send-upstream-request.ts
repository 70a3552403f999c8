import { errors, type Dispatcher, type FormData } from 'undici';
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
  options: {
    dispatcher: Dispatcher;
    signal: AbortSignal | UpstreamAbortSignal | undefined;
    headersTimeoutMs: number;
    bodyTimeoutMs: number;
  },
): Promise<Dispatcher.ResponseData> {
  const { origin, path } = splitUpstreamUrl(upstreamRequest.url);
  const headers: Record<string, string> = { accept: 'application/json, text/event-stream' };
  if (typeof upstreamRequest.body === 'string' || upstreamRequest.body instanceof Uint8Array)
    headers['content-type'] = 'application/json';
  // The dispatcher's own `request`, given origin and path: undici's top-level `request(url)` parses the URL into a
  // new URL object and copies the options on every call, and both live as long as the vendor takes to answer.
  return options.dispatcher.request({
    origin,
    path,
    method: upstreamRequest.method ?? 'POST',
    headers: { ...headers, ...upstreamRequest.headers },
    body: upstreamRequest.body,
    signal: options.signal,
    headersTimeout: options.headersTimeoutMs,
    bodyTimeout: options.bodyTimeoutMs,
  });
}

/** Origin and path (with the query) of a vendor URL, as undici's `request(url)` splits it. */
interface UpstreamTarget {
  origin: string;
  path: string;
}

/** Vendor URLs met so far: a channel sends every request to the same few URLs. Cleared when full, never large. */
const targetsByUrl = new Map<string, UpstreamTarget>();
const targetsByUrlLimit = 1024;

function splitUpstreamUrl(url: string): UpstreamTarget {
  const known = targetsByUrl.get(url);
  if (known) return known;
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new errors.InvalidArgumentError('Invalid URL protocol: the URL must start with `http:` or `https:`.');
  }
  const target = {
    origin: parsed.origin,
    path: parsed.search ? `${parsed.pathname}${parsed.search}` : parsed.pathname,
  };
  if (targetsByUrl.size >= targetsByUrlLimit) targetsByUrl.clear();
  targetsByUrl.set(url, target);
  return target;
}
