import type { CanonicalStreamPart } from '../../core/canonical/canonical-stream-part.js';
import { mapOpenAiUpstreamFailure } from '../openai/map-openai-upstream-failure.js';
import { redactUpstreamText } from '../openai/redact-upstream-text.js';
import type { UpstreamAttemptResult } from '../upstream-attempt-result.js';

/**
 * Maps a non-2xx Anthropic answer (`{type:'error', error:{type, message}}`) the way the OpenAI passthrough
 * maps its own: 400 → invalid_request_error with the redacted vendor message; 401/403 → retryable
 * service_unavailable; 404 → retryable model_not_found; 429 → retryable rate_limit_exceeded with
 * retry-after; 500 → retryable server_error; 529 (overloaded) and other 5xx → retryable service_unavailable.
 */
export function mapAnthropicFailure(
  status: number,
  bodyText: string,
  retryAfter: string | undefined,
): UpstreamAttemptResult<never> {
  const message = readAnthropicError(bodyText)?.message;
  return mapOpenAiUpstreamFailure(status, JSON.stringify({ error: { message } }), retryAfter);
}

/** An `error` event in the middle of a stream as a canonical error part. */
export function mapAnthropicStreamError(data: unknown): Extract<CanonicalStreamPart, { type: 'error' }> {
  const error = readErrorObject(data);
  // Redacted of key-shaped text here; dispatch also removes the channel's own key before a client sees it.
  const message = error?.message ? redactUpstreamText(error.message) : 'The upstream vendor failed mid-stream.';
  if (error?.type === 'overloaded_error') return { type: 'error', failure: { message, code: 'service_unavailable' } };
  if (error?.type === 'rate_limit_error') return { type: 'error', failure: { message, code: 'rate_limit_exceeded' } };
  return { type: 'error', failure: { message, code: 'server_error' } };
}

function readAnthropicError(bodyText: string): { type?: string; message?: string } | undefined {
  try {
    return readErrorObject(JSON.parse(bodyText));
  } catch {
    return undefined;
  }
}

function readErrorObject(data: unknown): { type?: string; message?: string } | undefined {
  if (!data || typeof data !== 'object' || !('error' in data)) return undefined;
  const error = (data as { error: unknown }).error;
  if (!error || typeof error !== 'object') return undefined;
  const fields = error as { type?: unknown; message?: unknown };
  return {
    type: typeof fields.type === 'string' ? fields.type : undefined,
    message: typeof fields.message === 'string' ? fields.message : undefined,
  };
}
