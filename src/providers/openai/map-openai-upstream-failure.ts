import { GatewayError } from '../../core/gateway-error.js';
import type { UpstreamAttemptResult } from '../upstream-attempt-result.js';
import { redactUpstreamText } from './redact-upstream-text.js';

interface OpenAiErrorFields {
  message?: unknown;
  param?: unknown;
}

/**
 * Maps a non-2xx upstream answer to what the client should see, and whether another channel may be tried.
 * Only the vendor's error message (redacted) and `param` pass through; its raw body, URL and headers never do.
 */
export function mapOpenAiUpstreamFailure(
  status: number,
  bodyText: string,
  retryAfter: string | undefined,
  knownSecrets: readonly string[] = [],
): UpstreamAttemptResult<never> {
  const fields = readErrorFields(bodyText);
  const vendorMessage =
    typeof fields.message === 'string' && fields.message ? redactUpstreamText(fields.message, knownSecrets) : undefined;
  const param = typeof fields.param === 'string' ? fields.param : null;

  if (status === 400 || status === 422) {
    return {
      kind: 'final-failure',
      error: new GatewayError(
        'invalid_request_error',
        vendorMessage ?? 'The upstream vendor rejected the request as invalid.',
        { param },
      ),
    };
  }
  if (status === 413) {
    return {
      kind: 'final-failure',
      error: new GatewayError(
        'request_too_large',
        vendorMessage ?? 'The request is too large for the upstream vendor.',
      ),
    };
  }
  if (status === 429) {
    const headers: Record<string, string> = retryAfter ? { 'retry-after': retryAfter } : {};
    return {
      kind: 'retryable-failure',
      error: new GatewayError(
        'rate_limit_exceeded',
        'The upstream vendor is rate limiting requests; reduce the rate and retry later.',
        { headers },
      ),
    };
  }
  if (status === 404) {
    return {
      kind: 'retryable-failure',
      error: new GatewayError('model_not_found', 'The upstream vendor does not serve this model or endpoint.'),
    };
  }
  if (status === 402) {
    // Payment Required: the channel's vendor account is out of credit, never the client's fault; another channel may answer.
    return {
      kind: 'retryable-failure',
      error: new GatewayError('service_unavailable', 'The upstream channel has run out of credit; retry later.'),
    };
  }
  if (status === 401 || status === 403) {
    return {
      kind: 'retryable-failure',
      error: new GatewayError(
        'service_unavailable',
        'The upstream channel refused the gateway credentials; retry later.',
      ),
    };
  }
  if (status === 500) {
    return {
      kind: 'retryable-failure',
      error: new GatewayError(
        'server_error',
        'The upstream vendor failed to process the request; retry, or change the prompt.',
      ),
    };
  }
  if (status >= 500) {
    return {
      kind: 'retryable-failure',
      error: new GatewayError('service_unavailable', 'The upstream vendor is temporarily unavailable; retry later.'),
    };
  }
  if (status === 408 || status === 409) {
    return {
      kind: 'retryable-failure',
      error: new GatewayError('service_unavailable', 'The upstream vendor timed out; retry later.'),
    };
  }
  return {
    kind: 'final-failure',
    error: new GatewayError(
      'invalid_request_error',
      vendorMessage ?? `The upstream vendor refused the request (status ${status}).`,
      { param },
    ),
  };
}

/** A connection failure, timeout or reset before any byte reached the client. */
export function mapUpstreamTransportFailure(): UpstreamAttemptResult<never> {
  return {
    kind: 'retryable-failure',
    error: new GatewayError('service_unavailable', 'The upstream vendor could not be reached; retry later.'),
  };
}

function readErrorFields(bodyText: string): OpenAiErrorFields {
  try {
    const parsed: unknown = JSON.parse(bodyText);
    if (parsed && typeof parsed === 'object' && 'error' in parsed) {
      const error = (parsed as { error: unknown }).error;
      if (error && typeof error === 'object') return error as OpenAiErrorFields;
      if (typeof error === 'string') return { message: error };
    }
  } catch {
    // Not JSON: the body is not shown to the client at all.
  }
  return {};
}
