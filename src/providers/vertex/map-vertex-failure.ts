import { z } from 'zod';
import { mapAnthropicFailure } from '../anthropic/map-anthropic-failure.js';
import { mapGeminiFailure } from '../gemini/map-gemini-failure.js';
import type { UpstreamAttemptResult } from '../upstream-attempt-result.js';

/** Anthropic's error body (`{type: "error", error: {type, message}}`), which Claude on Vertex passes on. */
const anthropicErrorSchema = z.object({ type: z.literal('error'), error: z.object({ type: z.string() }) });

/**
 * Maps a non-2xx Vertex answer. Vertex itself (authentication, quota, unknown model) answers Google's
 * `{error:{code, message, status}}` for every publisher; Claude's own refusals keep Anthropic's shape.
 */
export function mapVertexFailure(
  status: number,
  bodyText: string,
  retryAfter: string | undefined,
): UpstreamAttemptResult<never> {
  return isAnthropicError(bodyText)
    ? mapAnthropicFailure(status, bodyText, retryAfter)
    : mapGeminiFailure(status, bodyText, retryAfter);
}

function isAnthropicError(bodyText: string): boolean {
  try {
    return anthropicErrorSchema.safeParse(JSON.parse(bodyText)).success;
  } catch {
    return false;
  }
}
