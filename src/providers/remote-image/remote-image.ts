// What fetching an image URL yields, and the function vendors that need image bytes inline are given to do it.

/** The media types the gateway accepts from an image URL, as every vendor reads all four. */
export type RemoteImageMediaType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

/** An image fetched from an http(s) URL. */
export interface RemoteImage {
  /** from the response's Content-Type */
  mediaType: RemoteImageMediaType;
  /** the response body, base64-encoded */
  base64: string;
}

/** One image URL to fetch. */
export interface RemoteImageRequest {
  url: string;
  /** the request field holding the URL, named by the 400 when the fetch fails, e.g. `messages[1].content[0].image_url.url` */
  param: string;
  /** cancels this fetch (its siblings failed, or the client went away) */
  signal?: AbortSignal;
}

/** Fetches one image URL; failures are 400 `invalid_request_error` GatewayErrors naming `param`. */
export type FetchRemoteImage = (request: RemoteImageRequest) => Promise<RemoteImage>;

/** The gateway's image fetcher: one connection pool whose every connection goes to a checked address. */
export interface RemoteImageFetcher {
  fetchImage: FetchRemoteImage;
  /**
   * A fetch for the images of one request: cancelled with `signal`, and refusing (400) once the images fetched
   * add up to more than the per-image limit, so no request can make the gateway hold many large images at once.
   */
  forRequest(signal: AbortSignal): FetchRemoteImage;
  /** closes the pool's connections */
  close(): Promise<void>;
}
