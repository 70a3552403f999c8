import type { CanonicalStreamFailure } from '../../core/canonical/canonical-stream-part.js';
import type { ErrorCode } from '../../core/error-codes.js';
import type { GatewayError } from '../../core/gateway-error.js';

/** Google's canonical status names (google.rpc.Code) that the gateway's errors map to. */
export type GeminiErrorStatus =
  | 'INVALID_ARGUMENT'
  | 'UNAUTHENTICATED'
  | 'PERMISSION_DENIED'
  | 'NOT_FOUND'
  | 'RESOURCE_EXHAUSTED'
  | 'DEADLINE_EXCEEDED'
  | 'INTERNAL'
  | 'UNAVAILABLE'
  | 'FAILED_PRECONDITION';

/** Google's error body: `{error: {code, message, status}}`, `code` being the HTTP status. */
export interface GeminiErrorBody {
  error: { code: number; message: string; status: GeminiErrorStatus };
}

/** A gateway error as Google's API would answer it: its status, body and headers. */
export interface GeminiErrorResponse {
  status: number;
  body: GeminiErrorBody;
  headers: Record<string, string>;
}

/**
 * Google's HTTP status and status name for each gateway error code (docs/API.md, "Gemini native API"). A missing or
 * wrong gateway key is 401 UNAUTHENTICATED (Google itself answers a bad key with 400, but a gateway key is not
 * Google's), an exhausted balance or a rate limit 429 RESOURCE_EXHAUSTED.
 */
export function geminiErrorOf(code: ErrorCode): { status: number; name: GeminiErrorStatus } {
  switch (code) {
    case 'invalid_request_error':
    case 'method_not_allowed':
    case 'unsupported_media_type':
    case 'headers_too_large':
      return { status: 400, name: 'INVALID_ARGUMENT' };
    case 'request_too_large':
      return { status: 413, name: 'INVALID_ARGUMENT' };
    case 'invalid_api_key':
    case 'unauthorized':
      return { status: 401, name: 'UNAUTHENTICATED' };
    case 'forbidden':
      return { status: 403, name: 'PERMISSION_DENIED' };
    case 'model_not_found':
    case 'not_found':
      return { status: 404, name: 'NOT_FOUND' };
    case 'request_timeout':
      return { status: 408, name: 'DEADLINE_EXCEEDED' };
    case 'insufficient_quota':
    case 'rate_limit_exceeded':
      return { status: 429, name: 'RESOURCE_EXHAUSTED' };
    case 'server_error':
      return { status: 500, name: 'INTERNAL' };
    case 'upstream_error':
      return { status: 502, name: 'UNAVAILABLE' };
    case 'upstream_timeout':
      return { status: 504, name: 'DEADLINE_EXCEEDED' };
    case 'service_unavailable':
      return { status: 503, name: 'UNAVAILABLE' };
    default: {
      const unreachable: never = code;
      throw new Error(`Unhandled error code ${String(unreachable)}`);
    }
  }
}

/** A gateway error in Google's shape; the error's own headers (retry-after, allow) are kept. */
export function toGeminiErrorResponse(error: GatewayError): GeminiErrorResponse {
  const { status, name } = geminiErrorOf(error.code);
  return {
    status,
    body: { error: { code: status, message: error.message, status: name } },
    headers: { ...error.headers },
  };
}

/** The error object of a stream chunk sent when the vendor failed after the stream began. */
export function geminiStreamFailureBody(failure: CanonicalStreamFailure): GeminiErrorBody {
  switch (failure.code) {
    case 'server_error':
      return { error: { code: 500, message: failure.message, status: 'INTERNAL' } };
    case 'service_unavailable':
      return { error: { code: 503, message: failure.message, status: 'UNAVAILABLE' } };
    case 'rate_limit_exceeded':
      return { error: { code: 429, message: failure.message, status: 'RESOURCE_EXHAUSTED' } };
    default: {
      const unreachable: never = failure.code;
      throw new Error(`Unhandled failure ${String(unreachable)}`);
    }
  }
}
