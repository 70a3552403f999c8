import { request, type Dispatcher, type FormData } from 'undici';
import type { OpenAiWireTarget } from './openai-wire-target.js';

/** One request to an OpenAI-wire upstream. */
export interface OpenAiUpstreamRequest {
  target: OpenAiWireTarget;
  /** path below the base URL, e.g. `/chat/completions` */
  path: string;
  /** a JSON string, or multipart form data */
  body: string | FormData;
  dispatcher: Dispatcher;
  signal: AbortSignal;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
}

/** Sends the request; only the gateway's own headers go upstream, never the client's. */
export function sendOpenAiRequest(upstreamRequest: OpenAiUpstreamRequest): Promise<Dispatcher.ResponseData> {
  const { target, body } = upstreamRequest;
  const headers: Record<string, string> = { ...target.headers, accept: 'application/json, text/event-stream' };
  if (typeof body === 'string') headers['content-type'] = 'application/json';
  return request(target.urlFor(upstreamRequest.path), {
    method: 'POST',
    headers,
    body,
    dispatcher: upstreamRequest.dispatcher,
    signal: upstreamRequest.signal,
    headersTimeout: upstreamRequest.headersTimeoutMs,
    bodyTimeout: upstreamRequest.bodyTimeoutMs,
  });
}
