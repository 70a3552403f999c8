import { GatewayError } from '../../core/gateway-error.js';
import type { FetchRemoteImage, RemoteImage, RemoteImageRequest } from './remote-image.js';

/** Fetches at most this many images of one request at once. */
const concurrentFetches = 4;

/**
 * Fetches the images concurrently (a URL given twice is fetched once) and returns them by URL. The first failure
 * cancels the other fetches and is thrown; without a fetcher, any URL is a 400 naming its param.
 */
export async function fetchRemoteImages(
  requests: readonly RemoteImageRequest[],
  fetchRemoteImage: FetchRemoteImage | undefined,
): Promise<Map<string, RemoteImage>> {
  const images = new Map<string, RemoteImage>();
  const pending = [...new Map(requests.map((request) => [request.url, request] as const)).values()];
  if (pending.length === 0) return images;
  if (!fetchRemoteImage) {
    throw new GatewayError(
      'invalid_request_error',
      'This gateway does not fetch image URLs for this model; send the image as a base64 data: URL.',
      { param: pending[0]?.param ?? null },
    );
  }
  const cancel = new AbortController();
  let next = 0;
  const fetchInTurn = async (): Promise<void> => {
    while (next < pending.length && !cancel.signal.aborted) {
      const request = pending[next++] as RemoteImageRequest;
      images.set(request.url, await fetchRemoteImage({ ...request, signal: cancel.signal }));
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrentFetches, pending.length) }, fetchInTurn));
  } catch (error) {
    cancel.abort();
    throw error;
  }
  return images;
}
