import type { CanonicalStreamFailure } from '../../core/canonical/canonical-stream-part.js';
import type { ErrorCode } from '../../core/error-codes.js';
import type { GatewayError } from '../../core/gateway-error.js';
import { MessagesThreadError } from './messages-thread-error.js';
import type { MessagesErrorBody, MessagesErrorType } from './messages-wire-types.js';

/** A gateway error as Anthropic would answer it: its status, body and headers. */
export interface MessagesErrorResponse {
  status: number;
  body: MessagesErrorBody;
  headers: Record<string, string>;
}

/**
 * Anthropic's status and error type for each gateway error code (docs/API.md, "Messages errors"). Statuses Anthropic
 * has no own type for keep the gateway's status with `invalid_request_error`; an exhausted balance stays 429 (the SDK's
 * RateLimitError) but tells the SDK not to retry.
 */
export function messagesErrorOf(code: ErrorCode): { status: number; type: MessagesErrorType } {
  switch (code) {
    case 'invalid_request_error':
      return { status: 400, type: 'invalid_request_error' };
    case 'invalid_api_key':
    case 'unauthorized':
      return { status: 401, type: 'authentication_error' };
    case 'forbidden':
      return { status: 403, type: 'permission_error' };
    case 'model_not_found':
    case 'not_found':
      return { status: 404, type: 'not_found_error' };
    case 'method_not_allowed':
      return { status: 405, type: 'invalid_request_error' };
    case 'request_timeout':
      return { status: 408, type: 'invalid_request_error' };
    case 'request_too_large':
      return { status: 413, type: 'request_too_large' };
    case 'unsupported_media_type':
      return { status: 415, type: 'invalid_request_error' };
    case 'headers_too_large':
      return { status: 431, type: 'invalid_request_error' };
    case 'insufficient_quota':
    case 'rate_limit_exceeded':
      return { status: 429, type: 'rate_limit_error' };
    case 'server_error':
      return { status: 500, type: 'api_error' };
    case 'upstream_error':
      return { status: 502, type: 'api_error' };
    case 'upstream_timeout':
      return { status: 504, type: 'api_error' };
    case 'service_unavailable':
      return { status: 529, type: 'overloaded_error' };
    default: {
      const unreachable: never = code;
      throw new Error(`Unhandled error code ${String(unreachable)}`);
    }
  }
}

/** A gateway error in Anthropic's shape, with the request id in the body and the error's own headers kept. */
export function toMessagesErrorResponse(error: GatewayError, requestId: string): MessagesErrorResponse {
  const { status, type } = messagesErrorOf(error.code);
  const headers: Record<string, string> = { ...error.headers };
  // A balance does not refill by retrying; the SDKs honour this header over their retry-on-429 rule.
  if (error.code === 'insufficient_quota') headers['x-should-retry'] = 'false';
  // A thread error names its `error_code` in `details`, as Anthropic does: the SDK recovers by it.
  const details = error instanceof MessagesThreadError ? { details: { error_code: error.threadErrorCode } } : {};
  return {
    status,
    body: { type: 'error', error: { type, message: error.message, ...details }, request_id: requestId },
    headers,
  };
}

/** The error type of a failure after the stream began (sent as `event: error`). */
export function messagesStreamErrorType(failure: CanonicalStreamFailure): MessagesErrorType {
  switch (failure.code) {
    case 'server_error':
      return 'api_error';
    case 'service_unavailable':
      return 'overloaded_error';
    case 'rate_limit_exceeded':
      return 'rate_limit_error';
    default: {
      const unreachable: never = failure.code;
      throw new Error(`Unhandled failure ${String(unreachable)}`);
    }
  }
}
