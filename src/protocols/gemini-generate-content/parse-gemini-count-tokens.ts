import type { CanonicalRequest } from '../../core/canonical/canonical-request.js';
import { GatewayError } from '../../core/gateway-error.js';
import { validateProtocolBody } from '../shared/validate-protocol-body.js';
import { countTokensRequestSchema } from './gemini-request-schema.js';
import { parseGeminiRequest, type ParseGeminiOptions } from './parse-gemini-request.js';

/**
 * A `countTokens` body as the canonical request it counts: `contents`, or a whole `generateContentRequest` (which
 * may add a system instruction and tools). Parsed like generateContent, so what it refuses is refused here too.
 */
export function parseGeminiCountTokensRequest(
  body: unknown,
  options: Omit<ParseGeminiOptions, 'stream' | 'orphanResponsesAllowed'>,
): CanonicalRequest {
  const fields =
    body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const parsed = validateProtocolBody(countTokensRequestSchema, fields);
  // Clients count part of a conversation too (a tool result alone): a response without its call is still counted.
  const parseOptions = { ...options, stream: false, orphanResponsesAllowed: true };
  if (parsed.generateContentRequest !== undefined)
    return parseGeminiRequest(parsed.generateContentRequest, parseOptions).request;
  if (parsed.contents === undefined)
    throw new GatewayError('invalid_request_error', "Missing required parameter: 'contents'.", { param: 'contents' });
  return parseGeminiRequest({ contents: parsed.contents }, parseOptions).request;
}
