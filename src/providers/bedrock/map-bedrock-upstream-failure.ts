import { GatewayError } from '../../core/gateway-error.js';
import type { UpstreamAttemptResult } from '../upstream-attempt-result.js';
import { redactBedrockText } from './redact-bedrock-text.js';

/**
 * Maps a non-2xx Bedrock answer (body `{"message": "..."}`, exception name in `x-amzn-errortype`), mirroring the
 * OpenAI mapping: only a redacted vendor message of a 400 reaches the client; credentials problems (401/403),
 * unknown or unavailable models (404), throttling (429) and server faults may be retried on another channel.
 */
export function mapBedrockUpstreamFailure(
  status: number,
  bodyText: string,
  retryAfter: string | undefined,
): UpstreamAttemptResult<never> {
  const vendorMessage = readMessage(bodyText);
  if (status === 400 || status === 422) {
    return {
      kind: 'final-failure',
      error: new GatewayError(
        'invalid_request_error',
        vendorMessage ?? 'The upstream vendor rejected the request as invalid.',
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
  if (status === 402) {
    // Payment Required: the channel's account is out of credit, never the client's fault; another channel may answer.
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
  if (status === 404) {
    return {
      kind: 'retryable-failure',
      error: new GatewayError(
        'model_not_found',
        'The upstream vendor does not serve this model in this region or account.',
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
  if (status === 500 || status === 424) {
    // 424 is ModelErrorException: the model itself failed while processing the request.
    return {
      kind: 'retryable-failure',
      error: new GatewayError(
        'server_error',
        'The upstream vendor failed to process the request; retry, or change the prompt.',
      ),
    };
  }
  if (status >= 500 || status === 408) {
    return {
      kind: 'retryable-failure',
      error: new GatewayError('service_unavailable', 'The upstream vendor is temporarily unavailable; retry later.'),
    };
  }
  return {
    kind: 'final-failure',
    error: new GatewayError(
      'invalid_request_error',
      vendorMessage ?? `The upstream vendor refused the request (status ${status}).`,
    ),
  };
}

function readMessage(bodyText: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(bodyText);
    if (parsed && typeof parsed === 'object') {
      const fields = parsed as { message?: unknown; Message?: unknown };
      const message = fields.message ?? fields.Message;
      if (typeof message === 'string' && message) return redactBedrockText(message);
    }
  } catch {
    // Not JSON: the body is not shown to the client at all.
  }
  return undefined;
}
