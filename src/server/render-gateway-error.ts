import type { FastifyRequest } from 'fastify';
import type { GatewayError } from '../core/gateway-error.js';
import { toMessagesErrorResponse } from '../protocols/anthropic-messages/messages-error.js';
import { toGeminiErrorResponse } from '../protocols/gemini-generate-content/gemini-error.js';

/** An error answer ready to send: status, headers and JSON body. */
export interface RenderedGatewayError {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/**
 * True for requests an Anthropic client sent: the /v1/messages routes (any query string), and /v1/models when the
 * request carries `anthropic-version` (the Anthropic-shaped model list). Their errors take Anthropic's shape.
 */
export function speaksAnthropic(request: FastifyRequest): boolean {
  const path = request.url.split('?')[0] ?? '/';
  if (path === '/v1/messages' || path.startsWith('/v1/messages/')) return true;
  return (
    (path === '/v1/models' || path.startsWith('/v1/models/')) && request.headers['anthropic-version'] !== undefined
  );
}

/**
 * A gateway error in the shape the client's protocol expects: Anthropic's `{type: "error", error: {type, message}}`
 * with Anthropic's statuses for Anthropic clients (plus the `request-id` header its SDK reads), Google's
 * `{error: {code, message, status}}` on /v1beta (Gemini's API), OpenAI's otherwise.
 */
export function renderGatewayError(request: FastifyRequest, error: GatewayError): RenderedGatewayError {
  // Gemini's clients (every /v1beta path, auth and rate limits included) get Google's `{error: {code, message, status}}`.
  if (request.url.startsWith('/v1beta/')) return toGeminiErrorResponse(error);
  if (!speaksAnthropic(request)) return { status: error.status, headers: error.headers, body: error.toBody() };
  const requestId = String(request.id);
  const rendered = toMessagesErrorResponse(error, requestId);
  return { status: rendered.status, headers: { ...rendered.headers, 'request-id': requestId }, body: rendered.body };
}
