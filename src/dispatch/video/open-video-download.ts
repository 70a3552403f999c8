import { isIP } from 'node:net';
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import type { VideoVendorRequest } from '../../providers/video/video-vendor-adapter.js';
import { discardUpstreamBody } from '../release-upstream-body.js';
import { sendUpstreamRequest } from '../send-upstream-request.js';
import type { VideoDispatchOptions } from './send-video-vendor-request.js';

/** How video downloads go out and what they may fetch. */
export interface VideoDownloadOptions {
  /** the vendor's own pool and the upstream timeouts (hops on the channel's own origin) */
  dispatch: VideoDispatchOptions;
  /** the pool for redirect targets on any other origin: its DNS lookup refuses addresses `isAddressAllowed` refuses */
  redirectDispatcher: Dispatcher;
  /** whether a redirect target written as an IP literal may be reached (sockets do not look those up) */
  isAddressAllowed: (address: string) => boolean;
  /** largest video accepted, in bytes */
  maxBytes: number;
  /** redirects followed before giving up; default 3 */
  maxRedirects?: number;
  signal?: AbortSignal;
}

/** Why a download did not open; `retryable` false means trying again cannot help (the task fails). */
export type VideoDownloadFailureReason =
  /** the vendor or a redirect target answered a status that is neither 2xx nor a redirect */
  | 'status'
  /** a redirect without a `Location` header, or one that is not an http(s) URL */
  | 'bad-redirect'
  /** more than `maxRedirects` redirects */
  | 'too-many-redirects'
  /** the vendor or a redirect target could not be reached, or cut the answer */
  | 'unreachable'
  /** a redirect pointed to a private, loopback or otherwise refused address */
  | 'refused-address'
  /** the declared length is over the cap */
  | 'too-large';

/** A download that did not open. */
export interface VideoDownloadFailure {
  kind: 'failed';
  reason: VideoDownloadFailureReason;
  retryable: boolean;
  /** for the logs: what happened, without the vendor's URLs or keys */
  detail: string;
}

/** A download whose 2xx answer is streaming: the caller consumes or destroys `body` (an 'error' listener is attached). */
export interface OpenedVideoDownload {
  kind: 'opened';
  body: Readable;
  /** bytes, when the answer said */
  length: number | undefined;
  contentType: string;
  /** redirects followed to get here */
  redirects: number;
}

const redirectStatuses = new Set([301, 302, 303, 307, 308]);
const refusedLookupCodes = new Set(['EADDRNOTPUBLIC']);

/**
 * Opens a video download: the first request goes to the vendor with its key; redirects are followed up to
 * `maxRedirects` (Veo's Gemini files `:download?alt=media` answers 302 to a signed storage URL). A hop on the channel's
 * own origin (`vendorOrigin`) goes through the vendor's pool with the vendor's headers; a hop anywhere else gets no
 * vendor header at all (the signed URL needs no key, and the key must never leave the vendor) and goes through the
 * SSRF-checked pool, as remote images do. Every body that is not handed back is destroyed with an 'error' listener.
 */
export async function openVideoDownload(
  request: VideoVendorRequest,
  vendorOrigin: string,
  options: VideoDownloadOptions,
): Promise<OpenedVideoDownload | VideoDownloadFailure> {
  const maxRedirects = options.maxRedirects ?? 3;
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return failed('bad-redirect', false, 'the download URL is not a URL');
  }
  for (let redirects = 0; ; redirects += 1) {
    const onVendorOrigin = url.origin === vendorOrigin;
    if (!onVendorOrigin && isRefusedLiteral(url, options.isAddressAllowed))
      return failed('refused-address', false, `a redirect pointed to the refused address ${url.hostname}`);
    let response: Dispatcher.ResponseData;
    try {
      response = await sendUpstreamRequest(
        {
          url: url.href,
          method: 'GET',
          body: undefined,
          headers: onVendorOrigin ? request.headers : { accept: request.headers.accept ?? '*/*' },
        },
        {
          dispatcher: onVendorOrigin ? options.dispatch.dispatcher : options.redirectDispatcher,
          signal: options.signal,
          headersTimeoutMs: options.dispatch.headersTimeoutMs,
          bodyTimeoutMs: options.dispatch.bodyTimeoutMs,
        },
      );
    } catch (error) {
      if (isRefusedLookup(error))
        return failed(
          'refused-address',
          false,
          `a redirect pointed to ${url.hostname}, which resolves to a refused address`,
        );
      return failed(
        'unreachable',
        true,
        `${onVendorOrigin ? 'the vendor' : 'a redirect target'} could not be reached: ${describeError(error)}`,
      );
    }
    response.body.on('error', () => undefined);
    const status = response.statusCode;
    if (redirectStatuses.has(status)) {
      discardUpstreamBody(response.body);
      const location = firstHeader(response.headers.location);
      if (!location) return failed('bad-redirect', true, `a redirect (${status}) without a Location header`);
      if (redirects >= maxRedirects) return failed('too-many-redirects', true, `more than ${maxRedirects} redirects`);
      const next = URL.canParse(location, url.href) ? new URL(location, url.href) : undefined;
      if (
        !next ||
        (next.protocol !== 'http:' && next.protocol !== 'https:') ||
        next.username !== '' ||
        next.password !== ''
      ) {
        return failed('bad-redirect', true, `a redirect (${status}) to a Location that is not a plain http(s) URL`);
      }
      url = next;
      continue;
    }
    if (status < 200 || status >= 300) {
      discardUpstreamBody(response.body);
      return failed('status', true, `${onVendorOrigin ? 'the vendor' : 'a redirect target'} answered ${status}`);
    }
    const declared = Number(firstHeader(response.headers['content-length']));
    const length = Number.isSafeInteger(declared) && declared >= 0 ? declared : undefined;
    if (length !== undefined && length > options.maxBytes) {
      discardUpstreamBody(response.body);
      return failed('too-large', false, `the video is ${length} bytes, over the cap of ${options.maxBytes}`);
    }
    return {
      kind: 'opened',
      body: response.body,
      length,
      contentType: firstHeader(response.headers['content-type']) ?? 'application/octet-stream',
      redirects,
    };
  }
}

function failed(reason: VideoDownloadFailureReason, retryable: boolean, detail: string): VideoDownloadFailure {
  return { kind: 'failed', reason, retryable, detail };
}

function isRefusedLiteral(url: URL, isAddressAllowed: (address: string) => boolean): boolean {
  // URL keeps the brackets of an IPv6 host; sockets connect to literals without a lookup, so they are judged here.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return isIP(host) !== 0 && !isAddressAllowed(host);
}

function isRefusedLookup(error: unknown): boolean {
  for (
    let current: unknown = error, depth = 0;
    current instanceof Error && depth < 4;
    current = current.cause, depth += 1
  ) {
    const code = (current as NodeJS.ErrnoException).code;
    if (code !== undefined && refusedLookupCodes.has(code)) return true;
  }
  return false;
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return 'unknown error';
  const code = (error as NodeJS.ErrnoException).code;
  return code ? `${error.name} ${code}` : error.name;
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
