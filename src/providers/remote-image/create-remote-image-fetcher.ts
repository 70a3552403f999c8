import { isIP } from 'node:net';
import { Agent, request, type Dispatcher } from 'undici';
import { GatewayError } from '../../core/gateway-error.js';
import { createCheckedLookup, type ResolveHostname } from './create-checked-lookup.js';
import { readBodyWithinLimit } from './read-body-within-limit.js';
import type {
  FetchRemoteImage,
  RemoteImage,
  RemoteImageFetcher,
  RemoteImageMediaType,
  RemoteImageRequest,
} from './remote-image.js';

/** How the fetcher behaves. */
export interface RemoteImageFetcherOptions {
  /** whether a connection may go to this IP address (see isFetchableAddress) */
  isAddressAllowed: (address: string) => boolean;
  /** largest image body accepted, in bytes */
  maxBytes: number;
  /** the whole fetch, redirects and body included, in milliseconds */
  timeoutMs: number;
  /** redirects followed before giving up; default 3 */
  maxRedirects?: number;
  /** default the system resolver */
  resolveHostname?: ResolveHostname;
}

const mediaTypesByContentType: Readonly<Record<string, RemoteImageMediaType>> = {
  'image/png': 'image/png',
  'image/jpeg': 'image/jpeg',
  // Not a registered type, but common enough on real servers to accept as JPEG.
  'image/jpg': 'image/jpeg',
  'image/gif': 'image/gif',
  'image/webp': 'image/webp',
};
const redirectStatuses = new Set([301, 302, 303, 307, 308]);
const acceptHeader = 'image/png, image/jpeg, image/gif, image/webp';
const unreachableMessage = "The image URL's host could not be reached, or is not a public address.";

/**
 * Fetches image URLs for vendors that take image bytes only. Every connection's address is checked at connect time
 * (redirect targets and re-resolved names included); hosts written as IP literals are checked before connecting, since
 * sockets do not look those up. Only PNG, JPEG, GIF and WebP bodies up to `maxBytes` are accepted.
 */
export function createRemoteImageFetcher(options: RemoteImageFetcherOptions): RemoteImageFetcher {
  const maxRedirects = options.maxRedirects ?? 3;
  const agent = new Agent({
    connect: {
      lookup: createCheckedLookup(options.isAddressAllowed, options.resolveHostname),
      timeout: options.timeoutMs,
    },
    keepAliveTimeout: 10_000,
  });

  async function fetchImage(image: RemoteImageRequest): Promise<RemoteImage> {
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const signal = image.signal ? AbortSignal.any([image.signal, timeout]) : timeout;
    try {
      return await fetchFollowingRedirects(image, signal);
    } catch (error) {
      if (error instanceof GatewayError) throw error;
      if (timeout.aborted)
        throw invalidImage(`The image URL did not answer within ${options.timeoutMs} ms.`, image.param);
      if (image.signal?.aborted)
        throw invalidImage('The image URL was not fetched: the request was cancelled.', image.param);
      throw invalidImage(unreachableMessage, image.param);
    }
  }

  async function fetchFollowingRedirects(image: RemoteImageRequest, signal: AbortSignal): Promise<RemoteImage> {
    let url = parseImageUrl(image.url, image.param);
    for (let redirects = 0; ; redirects++) {
      refuseLiteralAddress(url, image.param);
      const response = await request(url, {
        method: 'GET',
        headers: { accept: acceptHeader },
        dispatcher: agent,
        signal,
      });
      if (!redirectStatuses.has(response.statusCode)) return readImage(response, image.param);
      discardBody(response);
      const location = firstHeader(response.headers.location);
      if (!location) throw invalidImage('The image URL answered with a redirect that has no location.', image.param);
      if (redirects >= maxRedirects)
        throw invalidImage(`The image URL redirected more than ${maxRedirects} times.`, image.param);
      url = parseImageUrl(new URL(location, url).href, image.param);
    }
  }

  async function readImage(response: Dispatcher.ResponseData, param: string): Promise<RemoteImage> {
    if (response.statusCode < 200 || response.statusCode > 299) {
      discardBody(response);
      throw invalidImage(`The image URL answered with HTTP status ${response.statusCode}.`, param);
    }
    const contentType = (firstHeader(response.headers['content-type']) ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    const mediaType = mediaTypesByContentType[contentType];
    if (!mediaType) {
      discardBody(response);
      const shown = contentType ? `'${contentType.slice(0, 100)}'` : 'no content type';
      throw invalidImage(
        `The image URL answered with ${shown}; only PNG, JPEG, GIF and WebP images are accepted.`,
        param,
      );
    }
    const declaredLength = Number(firstHeader(response.headers['content-length']));
    const bytes =
      declaredLength > options.maxBytes ? undefined : await readBodyWithinLimit(response.body, options.maxBytes);
    if (!bytes) {
      discardBody(response);
      throw invalidImage(`The image at this URL is larger than ${options.maxBytes} bytes.`, param);
    }
    return { mediaType, base64: bytes.toString('base64') };
  }

  function refuseLiteralAddress(url: URL, param: string): void {
    // URL keeps the brackets of an IPv6 host; sockets connect to literals without a lookup, so they are judged here.
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if (isIP(host) && !options.isAddressAllowed(host))
      throw invalidImage('The image URL points to a private, loopback or otherwise non-public address.', param);
  }

  function forRequest(requestSignal: AbortSignal): FetchRemoteImage {
    let fetchedBytes = 0;
    return async (image) => {
      const fetched = await fetchImage({
        ...image,
        signal: image.signal ? AbortSignal.any([requestSignal, image.signal]) : requestSignal,
      });
      fetchedBytes += Buffer.byteLength(fetched.base64, 'base64');
      if (fetchedBytes > options.maxBytes)
        throw invalidImage(
          `The images at URLs in this request add up to more than ${options.maxBytes} bytes.`,
          image.param,
        );
      return fetched;
    };
  }

  return { fetchImage, forRequest, close: () => agent.close() };
}

function parseImageUrl(text: string, param: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalidImage('The image URL is not a valid URL.', param);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw invalidImage('The image URL must use http or https.', param);
  if (url.username || url.password) throw invalidImage('The image URL must not carry a user name or password.', param);
  return url;
}

/** Drops a body the fetch will not read; destroying it emits an abort error that nobody needs to hear. */
function discardBody(response: Dispatcher.ResponseData): void {
  response.body.on('error', () => undefined);
  response.body.destroy();
}

function invalidImage(message: string, param: string): GatewayError {
  return new GatewayError('invalid_request_error', message, { param });
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
