import { request, type Dispatcher, type FormData } from 'undici';

/** Where and with which secret to send an OpenAI-protocol request. */
export interface OpenAiUpstreamTarget {
  /** base URL including the version prefix, without a trailing slash */
  baseUrl: string;
  secret: string;
}

/** One request to an OpenAI-protocol upstream. */
export interface OpenAiUpstreamRequest {
  target: OpenAiUpstreamTarget;
  /** path below the base URL, e.g. `/chat/completions` */
  path: string;
  method?: 'GET' | 'POST';
  /** a JSON string, or multipart form data */
  body?: string | FormData;
  dispatcher: Dispatcher;
  signal: AbortSignal;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
}

/** Sends the request; only the gateway's own headers go upstream, never the client's. */
export function sendOpenAiRequest(upstreamRequest: OpenAiUpstreamRequest): Promise<Dispatcher.ResponseData> {
  const { target, body } = upstreamRequest;
  const headers: Record<string, string> = { authorization: `Bearer ${target.secret}`, accept: 'application/json, text/event-stream' };
  if (typeof body === 'string') headers['content-type'] = 'application/json';
  return request(target.baseUrl + upstreamRequest.path, {
    method: upstreamRequest.method ?? 'POST',
    headers,
    body,
    dispatcher: upstreamRequest.dispatcher,
    signal: upstreamRequest.signal,
    headersTimeout: upstreamRequest.headersTimeoutMs,
    bodyTimeout: upstreamRequest.bodyTimeoutMs,
  });
}
