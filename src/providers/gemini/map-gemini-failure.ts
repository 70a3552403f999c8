import type { CanonicalStreamPart } from '../../core/canonical/canonical-stream-part.js';
import { mapOpenAiUpstreamFailure } from '../openai/map-openai-upstream-failure.js';
import { redactUpstreamText } from '../openai/redact-upstream-text.js';
import type { UpstreamAttemptResult } from '../upstream-attempt-result.js';

/** Gemini's error body fields. */
interface GeminiErrorFields {
  code?: number;
  message?: string;
  status?: string;
  details?: Array<{ reason?: string }>;
}

/**
 * Maps a non-2xx Gemini answer (`{error:{code, message, status}}`) like the OpenAI passthrough maps its
 * own. Gemini answers a bad key with 400 INVALID_ARGUMENT (reason API_KEY_INVALID): that is the channel's
 * credential, not the client's request, so it is treated as 401 (retryable service_unavailable).
 */
export function mapGeminiFailure(
  status: number,
  bodyText: string,
  retryAfter: string | undefined,
): UpstreamAttemptResult<never> {
  const error = readGeminiError(bodyText);
  const badKey =
    status === 400 &&
    (error?.details?.some((detail) => detail.reason === 'API_KEY_INVALID') === true ||
      /api key not valid/i.test(error?.message ?? ''));
  return mapOpenAiUpstreamFailure(
    badKey ? 401 : status,
    JSON.stringify({ error: { message: error?.message } }),
    retryAfter,
  );
}

/** An error chunk in the middle of a stream as a canonical error part. */
export function mapGeminiStreamError(error: GeminiErrorFields): Extract<CanonicalStreamPart, { type: 'error' }> {
  // Redacted of key-shaped text (AIza...) here; dispatch also removes the channel's own key before a client sees it.
  const message = error.message ? redactUpstreamText(error.message) : 'The upstream vendor failed mid-stream.';
  if (error.status === 'RESOURCE_EXHAUSTED' || error.code === 429)
    return { type: 'error', failure: { message, code: 'rate_limit_exceeded' } };
  if (error.status === 'UNAVAILABLE' || error.code === 503)
    return { type: 'error', failure: { message, code: 'service_unavailable' } };
  return { type: 'error', failure: { message, code: 'server_error' } };
}

function readGeminiError(bodyText: string): GeminiErrorFields | undefined {
  try {
    const parsed = JSON.parse(bodyText) as { error?: unknown };
    return parsed.error && typeof parsed.error === 'object' ? (parsed.error as GeminiErrorFields) : undefined;
  } catch {
    return undefined;
  }
}
